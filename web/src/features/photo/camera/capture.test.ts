import { coverCrop } from './capture';
import { SIMULATED_BARCODE } from './simulation';
import { upcaModules, upcCheckDigit } from './upca';
import { videoConstraints } from './controller';

describe('capture', () => {
  it('crops a 16:9 frame to what a 3:4 viewfinder shows', () => {
    expect(coverCrop(1280, 720, 3 / 4)).toEqual({ sx: 370, sy: 0, sw: 540, sh: 720 });
    expect(coverCrop(720, 1280, 16 / 9)).toEqual({ sx: 0, sy: 438, sw: 720, sh: 405 });
    expect(coverCrop(640, 480, NaN)).toEqual({ sx: 0, sy: 0, sw: 640, sh: 480 });
  });

  it('asks for 1280×720 from the chosen side, exactly when switching', () => {
    expect(videoConstraints('back', false)).toEqual({ facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } });
    expect(videoConstraints('front', true).facingMode).toEqual({ exact: 'user' });
  });
});

describe('UPC-A for the simulation picture', () => {
  it('computes check digits and the 95 modules', () => {
    expect(upcCheckDigit('03600029145')).toBe(2);
    expect(upcCheckDigit(SIMULATED_BARCODE.slice(0, 11))).toBe(Number(SIMULATED_BARCODE[11]));
    const modules = upcaModules('036000291452');
    expect(modules).toHaveLength(95);
    expect(modules.startsWith('101' + '0001101')).toBe(true); // start guard, then L-code 0
    expect(modules.slice(45, 50)).toBe('01010');
    expect(modules.endsWith('1101100' + '101')).toBe(true); // R-code 2, end guard
    expect(() => upcaModules('036000291453')).toThrow('not a valid UPC-A code');
  });
});
