import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** Opaque, prefixed, URL-safe ids (`prod_3k9…`), like Stripe's: the prefix tells what an id names. */
export function newId (prefix: string): string {
  const bytes = randomBytes(16)
  let out = ''
  for (const byte of bytes) out += ALPHABET[byte % 36]
  return `${prefix}_${out}`
}
