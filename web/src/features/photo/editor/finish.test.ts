import { finishEditing, giftPrompt } from './finish';

const EDITED = 'data:image/jpeg;base64,ZWRpdGVk';
const ORIGINAL = 'data:image/jpeg;base64,b3JpZ2luYWw=';

function deps(overrides: Partial<Parameters<typeof finishEditing>[0]> = {}) {
  return {
    flatten: vi.fn(() => EDITED),
    original: ORIGINAL,
    generate: vi.fn(async () => ({ name: 'Racing Car', description: 'A red toy car.', price: '$24.99', source: 'gemini' as const })),
    toast: vi.fn(),
    navigate: vi.fn(),
    ...overrides,
  };
}

describe('the editor Next step', () => {
  it('flattens the stage, stores editedImage, asks the AI with the image and stores its answer', async () => {
    const d = deps();
    await finishEditing(d);
    expect(d.flatten).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('editedImage')).toBe(EDITED);
    expect(d.toast).toHaveBeenCalledWith({
      title: 'AI analysis in progress',
      description: 'Identifying gift details using AI...',
      duration: 3000,
    });
    expect(d.generate).toHaveBeenCalledWith({ prompt: '', mode: 'gift', image: EDITED });
    expect(localStorage.getItem('geminiItemName')).toBe('Racing Car');
    expect(localStorage.getItem('geminiItemDescription')).toBe('A red toy car.');
    expect(localStorage.getItem('geminiItemPrice')).toBe('$24.99');
    expect(localStorage.getItem('geminiItemSource')).toBe('gemini');
    expect(d.navigate).toHaveBeenCalledWith('/gift-options');
  });

  it('tells the AI the barcode when the photo came from a scan', async () => {
    const d = deps();
    const scan = { type: 'barcode' as const, value: '036000291452', timestamp: '2026-12-01T10:00:00.000Z' };
    await finishEditing({ ...d, scan });
    expect(d.generate).toHaveBeenCalledWith({ prompt: giftPrompt(scan), mode: 'gift', image: EDITED });
    expect(giftPrompt(scan)).toContain('036000291452');
  });

  it('stores the spec defaults, shows the 5 s error toast and still goes on when the AI fails', async () => {
    const d = deps({ generate: vi.fn(async () => Promise.reject(new Error('502'))) });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await finishEditing(d);
    expect(localStorage.getItem('geminiItemName')).toBe('Wishlist Item');
    expect(localStorage.getItem('geminiItemDescription')).toBe('A gift item from your wishlist');
    expect(localStorage.getItem('geminiItemPrice')).toBe('$0.00');
    expect(localStorage.getItem('geminiItemSource')).toBe('fallback');
    expect(d.toast).toHaveBeenLastCalledWith({
      title: 'Error processing image',
      description: 'There was a problem analyzing your photo. Please try again.',
      variant: 'destructive',
      duration: 5000,
    });
    expect(d.navigate).toHaveBeenCalledWith('/gift-options');
  });

  it('keeps a server fallback answer but does not call it AI', async () => {
    const d = deps({ generate: vi.fn(async () => ({ name: '', description: '', price: '', source: 'fallback' as const })) });
    await finishEditing(d);
    expect(localStorage.getItem('geminiItemName')).toBe('Wishlist Item');
    expect(localStorage.getItem('geminiItemDescription')).toBe('No description available');
    expect(localStorage.getItem('geminiItemSource')).toBe('fallback');
  });

  it('uses the photo as it was when the canvas cannot be flattened', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const d = deps({
      flatten: vi.fn(() => {
        throw new Error('tainted');
      }),
    });
    await finishEditing(d);
    expect(localStorage.getItem('editedImage')).toBe(ORIGINAL);
    expect(d.generate).toHaveBeenCalledWith({ prompt: '', mode: 'gift', image: ORIGINAL });
  });
});
