/*
 * Escaping for server-rendered HTML. Text and attribute values go through `escapeHtml`, URLs are
 * built with URL/URLSearchParams (which percent-encode), inline data goes through `safeJson`.
 */

/** Where the storefront's own files are served (host.js, shop.js and the stylesheets), on every store's host. */
export const ASSETS_PATH = '/store/_assets'

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

/** For text and for double-quoted attribute values alike. */
export function escapeHtml (value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (char) => HTML_ESCAPES[char])
}

const JSON_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' }

/**
 * JSON that is safe inside `<script type="application/json">`: `</script>`, `<!--` and the JS line
 * separators U+2028/2029 cannot appear literally, and JSON.parse still reads the same value.
 */
export function safeJson (value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => JSON_ESCAPES[char])
}

/** An http(s) URL with query parameters set (percent-encoded); null for anything else. */
export function httpUrl (raw: string, params: Record<string, string> = {}): URL | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url
}

/** `data-*` attributes from camelCase keys, values escaped. */
export function dataAttributes (data: Record<string, string>): string {
  return Object.entries(data)
    .map(([key, value]) => ` data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(value)}"`)
    .join('')
}

/** Minor units in the business currency and locale ("$12.50"); a bad locale or currency falls back. */
export function formatPrice (minor: number, currency: string, locale: string): string {
  let format: Intl.NumberFormat
  try {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency })
  } catch {
    try {
      format = new Intl.NumberFormat('en', { style: 'currency', currency })
    } catch {
      return `${(minor / 100).toFixed(2)} ${currency}`
    }
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  return format.format(minor / 10 ** digits)
}
