import { createHash, randomFillSync } from 'node:crypto'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** Opaque, prefixed, URL-safe ids (`prod_3k9…`), like Stripe's: the prefix tells what an id names. */
export function newId (prefix: string): string {
  return encode(prefix, randomSixteen())
}

/** Random bytes drawn 4 KiB at a time: one call into the CSPRNG per 256 ids (randomUUID does the same). */
const entropy = Buffer.alloc(4096)
let drawn = entropy.length
function randomSixteen (): Uint8Array {
  if (drawn + 16 > entropy.length) {
    randomFillSync(entropy)
    drawn = 0
  }
  drawn += 16
  return entropy.subarray(drawn - 16, drawn)
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
