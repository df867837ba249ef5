import { EMPTY_ADD_ITEM, MESSAGES, isValidImageUrl, toNewItem, validateAddItem } from './validation';

const valid = {
  ...EMPTY_ADD_ITEM,
  name: 'Sled',
  description: 'A wooden sled for two',
  category: 'Toys',
};

describe('validateAddItem', () => {
  it('accepts a complete item with optional fields left blank', () => {
    expect(validateAddItem(valid)).toEqual({});
  });

  it('reports every required field on an empty form, word for word', () => {
    expect(validateAddItem(EMPTY_ADD_ITEM)).toEqual({
      name: 'Item name must be at least 3 characters.',
      description: 'Please provide a detailed description (at least 10 characters).',
      category: 'Please select a category.',
    });
  });

  it('applies the minimum lengths at their edges', () => {
    expect(validateAddItem({ ...valid, name: 'ab' }).name).toBe(MESSAGES.name);
    expect(validateAddItem({ ...valid, name: 'abc' }).name).toBeUndefined();
    expect(validateAddItem({ ...valid, description: '123456789' }).description).toBe(MESSAGES.description);
    expect(validateAddItem({ ...valid, description: '1234567890' }).description).toBeUndefined();
  });

  it('does not count surrounding spaces towards a minimum', () => {
    expect(validateAddItem({ ...valid, name: '  a  ' }).name).toBe(MESSAGES.name);
  });

  it('checks search keywords only when given', () => {
    expect(validateAddItem({ ...valid, searchQuery: 'ab' }).searchQuery).toBe(
      'Please provide a search query for the product.',
    );
    expect(validateAddItem({ ...valid, searchQuery: 'red sled' }).searchQuery).toBeUndefined();
  });

  it('checks the image URL only when given', () => {
    expect(validateAddItem({ ...valid, imageUrl: 'not a url' }).imageUrl).toBe(
      'Please provide a valid image URL or leave it blank.',
    );
    expect(validateAddItem({ ...valid, imageUrl: 'https://example.com/sled.png' }).imageUrl).toBeUndefined();
  });
});

describe('isValidImageUrl', () => {
  it.each([
    ['https://example.com/a.png', true],
    ['http://example.com/a.png', true],
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['ftp://example.com/a.png', false],
    ['javascript:alert(1)', false],
    ['data:text/html;base64,PHA+', false],
    ['example.com/a.png', false],
  ])('%s → %s', (url, ok) => {
    expect(isValidImageUrl(url)).toBe(ok);
  });
});

describe('toNewItem', () => {
  it('builds the text form body of docs/spec.md, section 3', () => {
    const item = toNewItem({ ...valid, price: ' $25 ', searchQuery: '', imageUrl: '' }, 'uid-1');
    expect(item).toEqual({
      name: 'Sled',
      description: 'A wooden sled for two',
      category: 'Toys',
      price: '$25',
      imageUrl: null,
      searchQuery: 'Sled',
      shoppingUrl: 'https://www.google.com/search?tbm=shop&q=Sled',
      features: [],
      aiGenerated: false,
      sentToSanta: false,
      userId: 'uid-1',
    });
  });

  it('uses the keywords for the shop search and sends an empty price as null', () => {
    const item = toNewItem({ ...valid, searchQuery: 'wooden sled', imageUrl: 'https://x.test/s.png' }, 'u');
    expect(item.searchQuery).toBe('wooden sled');
    expect(item.shoppingUrl).toBe('https://www.google.com/search?tbm=shop&q=wooden%20sled');
    expect(item.price).toBeNull();
    expect(item.imageUrl).toBe('https://x.test/s.png');
  });
});
