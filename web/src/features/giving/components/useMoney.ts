import { useCallback } from 'react';
import { useLanguage } from '../../../lib/i18n';
import { formatMoney } from '../money';

/** Formats an exact amount in the language shown. */
export function useMoney(): (amount: string, currency: string) => string {
  const lng = useLanguage();
  return useCallback((amount: string, currency: string) => formatMoney(amount, currency, lng), [lng]);
}
