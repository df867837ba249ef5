/** docs/spec.md, section 9 'Editor canvas': window width minus 32 (no wider than the content), 60% of the window height. */
export function editorCanvasSize(windowWidth: number, windowHeight: number, contentWidth: number): { width: number; height: number } {
  const width = Math.max(200, Math.min(windowWidth - 32, contentWidth > 0 ? contentWidth : windowWidth - 32));
  const height = Math.max(240, Math.round(windowHeight * 0.6));
  return { width: Math.round(width), height };
}

export interface FitBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The photo's place on the canvas: whole, centred (object-fit: contain). */
export function containFit(imageWidth: number, imageHeight: number, boxWidth: number, boxHeight: number): FitBox {
  if (!imageWidth || !imageHeight) return { x: 0, y: 0, width: boxWidth, height: boxHeight };
  const scale = Math.min(boxWidth / imageWidth, boxHeight / imageHeight);
  const width = imageWidth * scale;
  const height = imageHeight * scale;
  return { x: (boxWidth - width) / 2, y: (boxHeight - height) / 2, width, height };
}
