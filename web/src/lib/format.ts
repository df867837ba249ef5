import { useMemo } from 'react';
import { useLanguage, type Language } from './i18n';

/**
 * Numbers, prices and dates for the language shown, with the browser's Intl. Components use
 * `useFormat()`; the plain functions take the language for code outside React and tests.
 */

const SYMBOLS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };
const CODES = /^(USD|EUR|GBP|JPY|CHF|CAD|AUD)$/i;

/** Reads "1,299.50" or "1.299,50" or "12": the last separator followed by 1-2 digits is the decimal one. */
function parseAmount(text: string): number | null {
  if (!/^\d[\d.,\s]*$/.test(text)) return null;
  const compact = text.replace(/\s/g, '');
  const decimal = /[.,](\d{1,2})$/.exec(compact);
  const whole = (decimal ? compact.slice(0, decimal.index) : compact).replace(/[.,]/g, '');
  const value = Number(`${whole}.${decimal ? decimal[1] : '0'}`);
  return Number.isFinite(value) ? value : null;
}

/**
 * A price as the API keeps it ('$12.99', '€5', '12.99 EUR') split into amount, ISO currency and
 * whether cents were written (so '$120' stays without them).
 */
export function parsePrice(price: string): { amount: number; currency: string; decimals: number } | null {
  const trimmed = price.trim();
  const m =
    /^(?<sym>[$€£¥]|[A-Za-z]{3})\s?(?<num>[\d.,\s]+)$/.exec(trimmed) ?? /^(?<num>[\d.,\s]+?)\s?(?<sym>[$€£¥]|[A-Za-z]{3})$/.exec(trimmed);
  if (!m?.groups) return null;
  const { sym, num } = m.groups;
  const currency = SYMBOLS[sym] ?? (CODES.test(sym) ? sym.toUpperCase() : null);
  const amount = parseAmount(num.trim());
  const decimals = /[.,]\d{1,2}$/.test(num.trim()) ? 2 : 0;
  return currency && amount !== null ? { amount, currency, decimals } : null;
}

/** '$12.99' → '12,99 $' in German; a text that is not a single price ('about $10-15') is kept as it is. */
export function formatPrice(price: string, lng: Language): string {
  const parsed = parsePrice(price);
  if (!parsed) return price;
  const { amount, currency, decimals } = parsed;
  return new Intl.NumberFormat(lng, { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(amount);
}

/**
 * A calendar date ('2026-12-24' or an ISO time) in the language's style: 24.12.2026, 24/12/2026, 12/24/2026.
 * A string is read in UTC, as the API sends dates, so midnight never turns into the day before;
 * a Date is shown in local time.
 */
export function formatDate(date: string | Date, lng: Language, style: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const value = typeof date === 'string' ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00Z` : date) : date;
  if (Number.isNaN(value.getTime())) return String(date);
  return new Intl.DateTimeFormat(lng, typeof date === 'string' ? { timeZone: 'UTC', ...style } : style).format(value);
}

/**
 * A number in the language's style. A whole number from 0 to 999 is its plain digits in each of
 * the app's languages (no grouping, Latin digits; a test holds this to Intl), and the home
 * screen's countdown is one: writing it directly spares the first screen the creation of an
 * Intl.NumberFormat, whose first one loads the locale data (about 140 ms on a throttled phone,
 * before the first paint).
 */
export function formatNumber(value: number, lng: Language): string {
  if (Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
  return new Intl.NumberFormat(lng).format(value);
}

/** Names joined as the language joins them: 'Ann and Ben', 'Ann und Ben', 'Ann et Ben', 'Ann y Ben'. */
export function formatNames(names: readonly string[], lng: Language): string {
  return new Intl.ListFormat(lng, { style: 'long', type: 'conjunction' }).format(names);
}

/** The formatters bound to the language shown; components re-render when it changes. */
export function useFormat() {
  const lng = useLanguage();
  return useMemo(
    () => ({
      lng,
      price: (price: string) => formatPrice(price, lng),
      date: (date: string | Date, style?: Intl.DateTimeFormatOptions) => formatDate(date, lng, style),
      number: (value: number) => formatNumber(value, lng),
      names: (names: readonly string[]) => formatNames(names, lng),
    }),
    [lng],
  );
}
