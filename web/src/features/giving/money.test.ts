import { currencyDigits, formatMoney, isCurrencyCode, minus, percentOf, readAmount, timesUnits } from './money';

describe('money as exact strings', () => {
  it('knows each currency\'s digits', () => {
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
  });

  it('reads a typed amount as the server checks it: positive, at most the currency\'s digits', () => {
    expect(readAmount('25', 'EUR')).toEqual({ amount: '25' });
    expect(readAmount(' 25.50 ', 'EUR')).toEqual({ amount: '25.5' });
    expect(readAmount('25,50', 'EUR')).toEqual({ amount: '25.5' });
    expect(readAmount('0.10', 'EUR')).toEqual({ amount: '0.1' });
    expect(readAmount('007', 'EUR')).toEqual({ amount: '7' });
    expect(readAmount('2500', 'JPY')).toEqual({ amount: '2500' });
    expect(readAmount('', 'EUR')).toEqual({ problem: 'required' });
    expect(readAmount('0', 'EUR')).toEqual({ problem: 'notPositive' });
    expect(readAmount('0.00', 'EUR')).toEqual({ problem: 'notPositive' });
    expect(readAmount('-5', 'EUR')).toEqual({ problem: 'notPositive' });
    expect(readAmount('ten', 'EUR')).toEqual({ problem: 'notNumber' });
    expect(readAmount('1e3', 'EUR')).toEqual({ problem: 'notNumber' });
    expect(readAmount('1.234', 'EUR')).toEqual({ problem: 'tooManyDecimals' });
    expect(readAmount('25.5', 'JPY')).toEqual({ problem: 'tooManyDecimals' });
    // Trailing zeros are not extra digits.
    expect(readAmount('25.500', 'EUR')).toEqual({ amount: '25.5' });
  });

  it('multiplies a price by whole units without floating point', () => {
    expect(timesUnits('29.99', 3, 'USD')).toBe('89.97');
    expect(timesUnits('0.1', 3, 'EUR')).toBe('0.30');
    expect(timesUnits('2500', 2, 'JPY')).toBe('5000');
    expect(timesUnits('19.99', 0, 'EUR')).toBe('0.00');
    expect(timesUnits('abc', 2, 'EUR')).toBeNull();
  });

  it('subtracts exactly, going below zero when over', () => {
    expect(minus('100.00', '75.50', 'EUR')).toBe('24.50');
    expect(minus('100', '120.5', 'EUR')).toBe('-20.50');
    expect(minus('0.3', '0.1', 'EUR')).toBe('0.20');
    expect(minus('5000', '2500', 'JPY')).toBe('2500');
    expect(minus('x', '1', 'EUR')).toBeNull();
  });

  it('formats for display in the language shown, keeping the exact amount', () => {
    expect(formatMoney('75.00', 'EUR', 'de')).toBe('75,00\u00a0€');
    expect(formatMoney('29.99', 'USD', 'en')).toBe('$29.99');
    expect(formatMoney('2500', 'JPY', 'en')).toBe('¥2,500');
    expect(formatMoney('12345678901234.56', 'EUR', 'en')).toBe('€12,345,678,901,234.56');
  });

  it('checks currency codes and measures progress for the bar only', () => {
    expect(isCurrencyCode('eur')).toBe(true);
    expect(isCurrencyCode('EURO')).toBe(false);
    expect(isCurrencyCode('12a')).toBe(false);
    expect(percentOf('75.00', '120.00')).toBe(62.5);
    expect(percentOf('130', '120')).toBe(100);
    expect(percentOf('1', '0')).toBe(0);
  });
});
