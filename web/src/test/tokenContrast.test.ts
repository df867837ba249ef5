/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// WCAG 2.2 AA 1.4.11 (non-text contrast): the boundary of a control, and the focus ring, stand out
// at 3:1 from what is around them: the page, a card (surface) and a sunken panel. The colours are
// read from the theme's tokens in index.css, light and dark, so a token changed later is checked.
const CSS = readFileSync(join(process.cwd(), 'src/index.css'), 'utf8');

/** The custom properties a rule block of index.css sets (`:root {…}` or `:root[data-theme='dark'] {…}`). */
function block(selector: string): Record<string, string> {
  const start = CSS.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in index.css`);
  const body = CSS.slice(start, CSS.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

const LIGHT = block(':root');
const THEMES = { light: LIGHT, dark: { ...LIGHT, ...block(":root[data-theme='dark']") } };

/** A token's colour as #rrggbb, following var(--other) references. */
function colour(tokens: Record<string, string>, name: string): string {
  let value = tokens[name];
  for (let hops = 0; value?.startsWith('var('); hops++) {
    if (hops > 5) throw new Error(`${name} refers in a circle`);
    value = tokens[value.slice(4, -1).trim()];
  }
  if (!value || !/^#[0-9a-f]{6}$/i.test(value)) throw new Error(`${name} is ${value}, not a #rrggbb colour`);
  return value;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** What each control's boundary is drawn with (index.css): inputs and checkboxes, outline buttons, the focus ring. */
const BOUNDARIES = {
  'input and checkbox border (--line-strong)': '--line-strong',
  'outline button border (--red-text)': '--red-text',
  'danger outline button border (--red-dark-text)': '--red-dark-text',
  'focus ring and focused input (--focus)': '--focus',
};
const BACKGROUNDS = ['--page', '--surface', '--surface-sunken'];

describe('control boundaries against the page (WCAG 1.4.11, 3:1)', () => {
  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  for (const [theme, tokens] of Object.entries(THEMES)) {
    for (const [what, token] of Object.entries(BOUNDARIES)) {
      for (const background of BACKGROUNDS) {
        it(`${theme}: ${what} on ${background}`, () => {
          const ratio = contrast(colour(tokens, token), colour(tokens, background));
          expect(ratio, `${colour(tokens, token)} on ${colour(tokens, background)}`).toBeGreaterThanOrEqual(3);
        });
      }
    }
  }
});
