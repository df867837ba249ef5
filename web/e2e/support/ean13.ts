/**
 * A tiny EAN-13 encoder for the lookup test, written independently of the app like upca.ts:
 * 12 digits → check digit → 95 modules. The first digit is not drawn: it chooses which of the
 * left six digits use the odd (L) or even (G) set.
 */
import { modules as upcModules } from './upca';

const L_CODES = ['0001101', '0011001', '0010011', '0111101', '0100011', '0110001', '0101111', '0111011', '0110111', '0001011'];
const PARITY = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];

const invert = (bits: string) => bits.replace(/./g, (b) => (b === '1' ? '0' : '1'));
const reverse = (bits: string) => [...bits].reverse().join('');

/** GS1 mod 10 over 12 digits: from the right, weights 3, 1, 3, … */
export function ean13CheckDigit(twelve: string): string {
  const sum = [...twelve].reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return String((10 - (sum % 10)) % 10);
}

export function ean13(twelve: string): string {
  if (!/^\d{12}$/.test(twelve)) throw new Error('EAN-13 needs 12 digits before the check digit');
  return twelve + ean13CheckDigit(twelve);
}

export function ean13Modules(code: string): string {
  const parity = PARITY[Number(code[0])];
  const left = [...code.slice(1, 7)]
    .map((d, i) => (parity[i] === 'L' ? L_CODES[Number(d)] : reverse(invert(L_CODES[Number(d)]))))
    .join('');
  const right = [...code.slice(7)].map((d) => invert(L_CODES[Number(d)])).join('');
  return `101${left}01010${right}101`;
}

/** The bars of a 12-digit UPC-A or a 13-digit EAN-13 code. */
export function barModules(code: string): string {
  return code.length === 13 ? ean13Modules(code) : upcModules(code);
}
