import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Random secret with a prefix: 32 bytes of randomness, URL-safe. */
export const randomSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`

/**
 * A webhook signing secret: the prefix, then 32 random bytes in standard base64, so a Standard
 * Webhooks library decodes the part after `whsec_` as the key (DESIGN §21).
 */
export const randomWebhookSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64')}`

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')

export function safeEqual (a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * AES-256-GCM for secrets the platform must read back (webhook secrets sign every delivery).
 * Format: v1.<iv>.<tag>.<ciphertext>, base64url parts.
 */
export function encryptSecret (plaintext: string, key: Buffer): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.')
}

export function decryptSecret (stored: string, key: Buffer): string {
  const [version, iv, tag, ciphertext] = stored.split('.')
  if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('unknown secret format')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
}
