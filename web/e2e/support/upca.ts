/**
 * A tiny UPC-A encoder for the barcode test: 11 digits → check digit → 95 modules → a picture.
 * Written independently of the app, so the test does not trust the code it checks.
 */
const L_CODES = ['0001101', '0011001', '0010011', '0111101', '0100011', '0110001', '0101111', '0111011', '0110111', '0001011'];

export function checkDigit(eleven: string): string {
  const digits = [...eleven].map(Number);
  const odd = digits.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0);
  const even = digits.filter((_, i) => i % 2 === 1).reduce((a, b) => a + b, 0);
  return String((10 - ((odd * 3 + even) % 10)) % 10);
}

/** The full 12-digit code for 11 digits. */
export function upcA(eleven: string): string {
  if (!/^\d{11}$/.test(eleven)) throw new Error('UPC-A needs 11 digits before the check digit');
  return eleven + checkDigit(eleven);
}

/** '1' for a bar, '0' for a space: start guard, 6 left digits (L), centre guard, 6 right digits (R), end guard. */
export function modules(code: string): string {
  const left = [...code.slice(0, 6)].map((d) => L_CODES[Number(d)]).join('');
  const right = [...code.slice(6)].map((d) => L_CODES[Number(d)].replace(/./g, (b) => (b === '1' ? '0' : '1'))).join('');
  return `101${left}01010${right}101`;
}
