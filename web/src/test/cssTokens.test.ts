/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Colours come from the tokens in index.css, which the dark theme redefines. A feature's CSS that
// reads a token nobody defines silently falls back to its light-only default (a white card in dark
// mode). Vitest runs from web/.
const SRC = join(process.cwd(), 'src');

/** Custom properties set at run time by components (style={{ '--x': … }}), not in CSS. */
const SET_BY_COMPONENTS = new Set(['--app-background', '--reader-scale']);

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

describe('CSS tokens', () => {
  it('every custom property a stylesheet reads is defined somewhere', () => {
    const sheets = cssFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    const defined = new Set(sheets.flatMap(({ text }) => [...text.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1])));
    const undefinedReads = sheets.flatMap(({ path, text }) =>
      [...text.matchAll(/var\((--[\w-]+)/g)]
        .map((m) => m[1])
        .filter((name) => !defined.has(name) && !SET_BY_COMPONENTS.has(name))
        .map((name) => `${path.slice(SRC.length + 1)}: ${name}`),
    );
    expect(undefinedReads).toEqual([]);
  });
});
