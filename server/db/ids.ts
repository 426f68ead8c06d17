import { createHash, randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** Opaque, prefixed, URL-safe ids (`prod_3k9…`), like Stripe's: the prefix tells what an id names. */
export function newId (prefix: string): string {
  return encode(prefix, randomBytes(16))
}

/**
 * An id in the same form, always the same for the same `key`: what is done again after a crash (a
 * webhook delivery of one event to one registration) is named as it was the first time.
 */
export function derivedId (prefix: string, key: string): string {
  return encode(prefix, createHash('sha256').update(key).digest().subarray(0, 16))
}

function encode (prefix: string, bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += ALPHABET[byte % 36]
  return `${prefix}_${out}`
}
