/**
 * Money as the API speaks it: exact decimal strings in a currency's digits. The app never adds
 * or multiplies amounts in floating point; it formats them for display only, checks what a person
 * typed the way the server does, and multiplies a price by whole units on its digits.
 */

/** How many decimals a currency has (EUR 2, JPY 0), from the browser's Intl. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A currency code as the API takes it: three letters. */
export function isCurrencyCode(text: string): boolean {
  if (!/^[A-Za-z]{3}$/.test(text.trim())) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: text.trim().toUpperCase() });
    return true;
  } catch {
    return false;
  }
}

/** Why a typed amount is refused (the words are the catalog's `amount.*`), or null. */
export type AmountProblem = 'required' | 'notNumber' | 'notPositive' | 'tooManyDecimals';

/**
 * Reads what a person typed as an amount in `currency`: "25", "25.5", "25,50" (a comma is a
 * decimal point, as many languages write it). Returns the decimal string to send, or why not:
 * positive, at most the currency's digits, as the server checks.
 */
export function readAmount(text: string, currency: string): { amount: string } | { problem: AmountProblem } {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { problem: 'required' };
  if (trimmed.startsWith('-') && /^-\d*\.?\d*$/.test(trimmed) && /\d/.test(trimmed)) return { problem: 'notPositive' };
  const m = /^(\d+)(?:\.(\d*))?$/.exec(trimmed) ?? /^()\.(\d+)$/.exec(trimmed);
  if (!m) return { problem: 'notNumber' };
  const whole = m[1].replace(/^0+(?=\d)/, '') || '0';
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > currencyDigits(currency)) return { problem: 'tooManyDecimals' };
  if (/^0*$/.test(whole) && /^0*$/.test(fraction)) return { problem: 'notPositive' };
  return { amount: fraction ? `${whole}.${fraction}` : whole };
}

/**
 * An amount times whole units, exact: "29.99" × 3 = "89.97". Done on the integer of minor units
 * (BigInt), written back with the currency's digits.
 */
export function timesUnits(amount: string, units: number, currency: string): string | null {
  const digits = currencyDigits(currency);
  const minor = /^\d+(\.\d+)?$/.test(amount) ? toMinor(amount, digits) : null;
  if (minor === null || !Number.isInteger(units) || units < 0) return null;
  return fromMinor(minor * BigInt(units), digits);
}

/**
 * An amount for display in the language shown ("75.00" EUR → "75,00 €" in German). Intl
 * formats the decimal string itself, so nothing is rounded through a float.
 */
export function formatMoney(amount: string, currency: string, lng: string): string {
  try {
    const format = new Intl.NumberFormat(lng, { style: 'currency', currency });
    // ES2023 Intl takes a decimal string and keeps it exact.
    return format.format(amount as unknown as number);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** How far a group gift is, 0-100, for the progress bar's width only. */
export function percentOf(pledged: string, target: string): number {
  const p = Number(pledged);
  const t = Number(target);
  if (!Number.isFinite(p) || !Number.isFinite(t) || t <= 0) return 0;
  return Math.min(100, Math.max(0, (p / t) * 100));
}

function toMinor(amount: string, digits: number): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!m) return null;
  const fraction = (m[3] ?? '').padEnd(digits, '0');
  if (fraction.length > digits) return null;
  const value = BigInt(m[2] + fraction);
  return m[1] ? -value : value;
}

function fromMinor(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const plain = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${plain}` : plain;
}

/** a − b, exact, in the currency's digits ("100.00" − "120.50" = "-20.50"); null if either does not read. */
export function minus(a: string, b: string, currency: string): string | null {
  const digits = currencyDigits(currency);
  const x = toMinor(a, digits);
  const y = toMinor(b, digits);
  return x === null || y === null ? null : fromMinor(x - y, digits);
}
