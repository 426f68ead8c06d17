import type { Clock } from '../../server/clock.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'

/** Installation facts needed on every App API call, cached by token hash. */
export interface CachedInstallation {
  id: string
  appId: string
  businessId: string
  scopes: string[]
  pendingScopes: string[]
  isTestInstall: boolean
  /** The API version it is pinned to. */
  apiVersion: ApiVersion
}

export const TOKEN_CACHE_MAX = 10_000
/** Safety net only: revocation evicts at once, locally and (through NOTIFY) in every other process. */
export const TOKEN_CACHE_TTL_MS = 30_000

/** A bounded LRU (Map insertion order) with a TTL and eviction by installation id. */
export function createTokenCache (options: { clock: Clock, max?: number, ttlMs?: number }) {
  const max = options.max ?? TOKEN_CACHE_MAX
  const ttlMs = options.ttlMs ?? TOKEN_CACHE_TTL_MS
  const now = (): number => options.clock.nowMs()
  const entries = new Map<string, { value: CachedInstallation, expiresAt: number }>()
  let enabled = true

  return {
    get (tokenHash: string): CachedInstallation | undefined {
      if (!enabled) return undefined
      const entry = entries.get(tokenHash)
      if (entry === undefined) return undefined
      entries.delete(tokenHash)
      if (entry.expiresAt <= now()) return undefined
      entries.set(tokenHash, entry)
      return entry.value
    },
    set (tokenHash: string, value: CachedInstallation): void {
      if (!enabled) return
      entries.delete(tokenHash)
      entries.set(tokenHash, { value, expiresAt: now() + ttlMs })
      if (entries.size > max) entries.delete(entries.keys().next().value as string)
    },
    evictInstallation (installationId: string): void {
      for (const [hash, entry] of entries) if (entry.value.id === installationId) entries.delete(hash)
    },
    clear: () => entries.clear(),
    /**
     * Off while revocations from other processes cannot reach this one (the LISTEN connection is
     * down): every token is checked in the database. Either way the entries are dropped.
     */
    setEnabled (on: boolean): void {
      enabled = on
      entries.clear()
    },
    get size () { return entries.size }
  }
}

export type TokenCache = ReturnType<typeof createTokenCache>
