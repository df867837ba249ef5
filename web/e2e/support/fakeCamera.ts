import { writeFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { barModules } from './ean13';

export const FRAME_WIDTH = 1280;
export const FRAME_HEIGHT = 720;

/**
 * Draws one camera frame in a real page (canvas) and returns it as JPEG bytes: a product box
 * on a table and, when `code` is given, its UPC-A or EAN-13 barcode large enough to read at phone size.
 */
export async function drawFrame(browser: Browser, code: string | null, label: string): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const dataUrl = await page.evaluate(
      ({ bars, code, label, width, height }) => {
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#efe6d8';
        ctx.fillRect(0, 0, width, height);
        ctx.fillStyle = '#b98a5a';
        ctx.fillRect(0, height * 0.78, width, height * 0.22);
        // The product box: white, with a red band for its name.
        ctx.fillStyle = '#fbfbf8';
        ctx.fillRect(width * 0.03, height * 0.08, width * 0.94, height * 0.78);
        ctx.fillStyle = '#c8102e';
        ctx.fillRect(width * 0.03, height * 0.08, width * 0.94, height * 0.17);
        ctx.fillStyle = '#ffffff';
        ctx.font = 'bold 54px sans-serif';
        ctx.textAlign = 'center';
        ctx.fillText(label, width / 2, height * 0.2);
        if (bars && code) {
          // 95 modules of 8 px with 12-module margins (the standard asks for 9).
          const moduleWidth = 8;
          const quiet = 12 * moduleWidth;
          const barHeight = 300;
          const x0 = Math.round((width - bars.length * moduleWidth) / 2);
          const y0 = Math.round(height * 0.27);
          ctx.fillStyle = '#ffffff';
          ctx.fillRect(x0 - quiet, y0 - 24, bars.length * moduleWidth + 2 * quiet, barHeight + 90);
          ctx.fillStyle = '#000000';
          for (let i = 0; i < bars.length; i++) {
            if (bars[i] === '1') ctx.fillRect(x0 + i * moduleWidth, y0, moduleWidth, barHeight);
          }
          ctx.font = '36px monospace';
          ctx.fillText(code, width / 2, y0 + barHeight + 48);
        }
        return canvas.toDataURL('image/jpeg', 0.95);
      },
      { bars: code ? barModules(code) : null, code, label, width: FRAME_WIDTH, height: FRAME_HEIGHT },
    );
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  } finally {
    await page.close();
  }
}

/**
 * Writes an MJPEG file for Chromium's `--use-file-for-fake-video-capture`: the same JPEG frame
 * repeated (Chromium loops the file).
 */
export function writeMjpeg(path: string, frame: Buffer, frames = 10): void {
  writeFileSync(path, Buffer.concat(Array.from({ length: frames }, () => frame)));
}
