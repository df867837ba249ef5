import {
  clearScan,
  readCameraSide,
  readCapturedImage,
  readEditedImage,
  readGiftDetails,
  readScannedItem,
  readScanResult,
  shareItemName,
  storeCameraSide,
  storeCapturedImage,
  storeEditedImage,
  storeGiftDetails,
  storeScanResult,
} from './flow';
import { dataUrlToBlob } from '../../lib/dataUrl';

const JPEG = 'data:image/jpeg;base64,/9j/4AAQ';

describe('photo flow storage', () => {
  it('remembers the camera side under cameraMode, back by default', () => {
    expect(readCameraSide()).toBe('back');
    storeCameraSide('front');
    expect(localStorage.getItem('cameraMode')).toBe('front');
    expect(readCameraSide()).toBe('front');
  });

  it('keeps image data URLs only', () => {
    localStorage.setItem('capturedImage', 'javascript:alert(1)');
    expect(readCapturedImage()).toBeNull();
    storeCapturedImage(JPEG);
    expect(localStorage.getItem('capturedImage')).toBe(JPEG);
    expect(readCapturedImage()).toBe(JPEG);
  });

  it('starts a new gift with a new photo: the old edit and AI details are forgotten', () => {
    storeEditedImage(JPEG);
    storeGiftDetails({ name: 'Old', description: 'Old gift here', price: '$1' }, true);
    storeCapturedImage(JPEG);
    expect(readEditedImage()).toBeNull();
    expect(localStorage.getItem('geminiItemName')).toBeNull();
  });

  it('reads gift details with the spec defaults and the AI badge only for AI answers', () => {
    expect(readGiftDetails()).toEqual({
      name: 'Wishlist Item',
      description: 'No description available',
      price: '$0.00',
      aiEnhanced: false,
    });
    storeGiftDetails({ name: 'Sled', description: 'A wooden sled', price: '$80' }, true);
    expect(readGiftDetails()).toEqual({ name: 'Sled', description: 'A wooden sled', price: '$80', aiEnhanced: true });
    storeGiftDetails({ name: 'Wishlist Item', description: 'A gift item from your wishlist', price: '$0.00' }, false);
    expect(readGiftDetails().aiEnhanced).toBe(false);
  });

  it('stores a scan as {type: barcode, value, ISO timestamp} and a scanned item', () => {
    const result = storeScanResult('036000291452', new Date('2026-12-01T10:00:00Z'));
    expect(JSON.parse(localStorage.getItem('scanResult')!)).toEqual({
      type: 'barcode',
      value: '036000291452',
      timestamp: '2026-12-01T10:00:00.000Z',
    });
    expect(readScanResult()).toEqual(result);
    expect(readScannedItem()).toEqual({ name: 'Scanned item 036000291452', barcode: '036000291452' });
    clearScan();
    expect(readScanResult()).toBeNull();
  });

  it('ignores stored scans that do not parse', () => {
    localStorage.setItem('scanResult', '{nope');
    localStorage.setItem('scannedItem', '42');
    expect(readScanResult()).toBeNull();
    expect(readScannedItem()).toBeNull();
  });

  it('names a shared gift by the AI name, else the scanned item, else Toy Racing Car', () => {
    expect(shareItemName()).toBe('Toy Racing Car');
    localStorage.setItem('scannedItem', JSON.stringify({ name: 'Lego Car' }));
    expect(shareItemName()).toBe('Lego Car');
    storeGiftDetails({ name: 'Racing Car Set', description: 'Cars and a track', price: '$30' }, true);
    expect(shareItemName()).toBe('Racing Car Set');
  });
});

describe('data URLs', () => {
  it('decodes base64 and plain data URLs to blobs', async () => {
    const blob = dataUrlToBlob('data:image/png;base64,aGk=');
    expect(blob.type).toBe('image/png');
    expect(await blob.text()).toBe('hi');
    expect(await dataUrlToBlob('data:text/plain,a%20b').text()).toBe('a b');
    expect(() => dataUrlToBlob('https://example.com')).toThrow('not a data URL');
  });
});
