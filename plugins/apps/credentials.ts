import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const CLIENT_SECRET_PREFIX = 'fbcs_'

/** Client ids are public and fixed: 32 hex characters. */
export const newClientId = (): string => randomBytes(16).toString('hex')

/** 32 random bytes behind the prefix; only its hash is stored. */
export const newClientSecret = (): string => `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`

/** High-entropy secrets need no slow hash: sha256 is enough and keeps checks fast. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex')

export function secretMatches (secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex')
  const expected = Buffer.from(storedHash, 'hex')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
