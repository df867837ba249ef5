import { needsReencoding, readFileAsDataUrl } from './imageFile';

describe('chosen images', () => {
  it('keeps small JPEG, PNG, WebP and GIF files as they are', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/gif']) {
      expect(needsReencoding({ type, size: 200_000 })).toBe(false);
    }
  });

  it('re-encodes large photos and types the server does not store', () => {
    expect(needsReencoding({ type: 'image/jpeg', size: 6_000_000 })).toBe(true);
    expect(needsReencoding({ type: 'image/svg+xml', size: 900 })).toBe(true);
    expect(needsReencoding({ type: 'image/heic', size: 900_000 })).toBe(true);
  });

  it('reads a file into a data URL', async () => {
    const url = await readFileAsDataUrl(new Blob(['hi'], { type: 'image/png' }));
    expect(url).toBe('data:image/png;base64,aGk=');
  });
});
