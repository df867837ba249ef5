#!/usr/bin/env node
// Rasterizes the SVG icons in public/icons/ to the PNG sizes the manifest and iOS need,
// with the system Chromium (playwright-core; no browser download).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const icons = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

const jobs = [
  { svg: 'icon.svg', png: 'icon-192.png', size: 192, transparent: true },
  { svg: 'icon.svg', png: 'icon-512.png', size: 512, transparent: true },
  { svg: 'icon-maskable.svg', png: 'icon-maskable-512.png', size: 512, transparent: false },
  { svg: 'icon-maskable.svg', png: 'apple-touch-icon.png', size: 180, transparent: false },
];

const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  for (const job of jobs) {
    const svg = readFileSync(join(icons, job.svg)).toString('base64');
    await page.setViewportSize({ width: job.size, height: job.size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img src="data:image/svg+xml;base64,${svg}" width="${job.size}" height="${job.size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: join(icons, job.png), omitBackground: job.transparent });
    console.log(`${job.png} ${job.size}×${job.size}`);
  }
} finally {
  await browser.close();
}
