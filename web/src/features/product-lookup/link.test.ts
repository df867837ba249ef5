import { describe, expect, it } from 'vitest';
import { firstLink, hostOf, productDescription, sharedLink } from './link';

describe('shared links', () => {
  it('takes url, else the first link in text, else in title', () => {
    expect(sharedLink(new URLSearchParams('url=https://shop.example/a&text=x'))).toBe('https://shop.example/a');
    expect(sharedLink(new URLSearchParams({ text: 'Look at this sled! https://shop.example/sled.' }))).toBe('https://shop.example/sled');
    expect(sharedLink(new URLSearchParams({ title: 'Sled (https://shop.example/s)' }))).toBe('https://shop.example/s');
    expect(sharedLink(new URLSearchParams({ text: 'no link here', url: 'javascript:alert(1)' }))).toBeNull();
  });
  it('refuses what is not http(s)', () => {
    expect(firstLink('ftp://x.example/a file:///etc/passwd')).toBeNull();
  });
  it('names the host without www', () => {
    expect(hostOf('https://www.shop.example/a')).toBe('shop.example');
  });
  it('makes a description long enough for the wishlist', () => {
    const words = (p: { name: string; brand: string; code: string }, withBrand: boolean) =>
      withBrand ? `${p.name} by ${p.brand} (barcode ${p.code})` : `${p.name} (barcode ${p.code})`;
    expect(productDescription({ name: 'Nutella', brand: ' Ferrero ', description: '', code: '3017624010701' }, words)).toBe(
      'Nutella by Ferrero (barcode 3017624010701)',
    );
    expect(productDescription({ name: 'Mints', brand: '', description: 'short', code: '96385074' }, words)).toBe('Mints (barcode 96385074)');
    expect(productDescription({ name: 'Kite', brand: '', description: 'A red kite for windy days', code: '1' }, words)).toBe(
      'A red kite for windy days',
    );
  });
});
