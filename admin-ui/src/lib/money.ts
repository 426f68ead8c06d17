/**
 * Money on screens (DESIGN §17): typed and shown in the currency's major unit (12.34), stored and
 * sent in minor units (1234). The currency's own number of decimals decides the factor (JPY has none).
 */
export function currencyDigits (currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

/** 1234 USD → "$12.34". */
export function formatMoney (minor: number, currency: string): string {
  const digits = currencyDigits(currency)
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(minor / 10 ** digits)
  } catch {
    return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`
  }
}

/** 1234 USD → "12.34", for an input's value. */
export function toMajorInput (minor: number, currency: string): string {
  const digits = currencyDigits(currency)
  return (minor / 10 ** digits).toFixed(digits)
}

/** "12.34" USD → 1234; null when the text is not an amount with at most the currency's decimals. */
export function parseMoney (text: string, currency: string): number | null {
  const digits = currencyDigits(currency)
  const match = /^\s*(\d{1,9})(?:[.,](\d*))?\s*$/.exec(text)
  if (match === null) return null
  const fraction = match[2] ?? ''
  if (fraction.length > digits) return null
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
}
