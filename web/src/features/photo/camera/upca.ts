/**
 * UPC-A bar patterns, for the simulation picture's barcode (so the mock camera shows a real,
 * scannable code and not a decoration).
 */
const LEFT = ['0001101', '0011001', '0010011', '0111101', '0100011', '0110001', '0101111', '0111011', '0110111', '0001011'];

/** The check digit of the first 11 digits. */
export function upcCheckDigit(eleven: string): number {
  let odd = 0;
  let even = 0;
  for (let i = 0; i < 11; i++) {
    const d = Number(eleven[i]);
    if (i % 2 === 0) odd += d;
    else even += d;
  }
  return (10 - ((odd * 3 + even) % 10)) % 10;
}

/** The 95 modules ('1' = bar) of a 12-digit UPC-A code. */
export function upcaModules(code: string): string {
  if (!/^\d{12}$/.test(code) || upcCheckDigit(code.slice(0, 11)) !== Number(code[11])) {
    throw new Error(`not a valid UPC-A code: ${code}`);
  }
  const left = [...code.slice(0, 6)].map((d) => LEFT[Number(d)]).join('');
  const right = [...code.slice(6)]
    .map((d) => [...LEFT[Number(d)]].map((bit) => (bit === '1' ? '0' : '1')).join(''))
    .join('');
  return `101${left}01010${right}101`;
}
