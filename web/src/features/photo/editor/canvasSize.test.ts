import { containFit, editorCanvasSize } from './canvasSize';

describe('editor canvas size', () => {
  it('is the window width minus 32 and 60% of its height on a phone', () => {
    expect(editorCanvasSize(390, 844, 366)).toEqual({ width: 358, height: 506 });
  });

  it('is capped to the content width on a wide screen', () => {
    expect(editorCanvasSize(1280, 900, 480)).toEqual({ width: 480, height: 540 });
  });

  it('fits the photo whole and centred', () => {
    expect(containFit(1280, 720, 358, 506)).toEqual({ x: 0, y: expect.closeTo(152.31, 2), width: 358, height: expect.closeTo(201.375, 2) });
    expect(containFit(0, 0, 100, 50)).toEqual({ x: 0, y: 0, width: 100, height: 50 });
  });
});
