import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm'
import { cliTokens, users } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { bindTo } from '../../server/db/bind.ts'
import { newId } from '../../server/db/ids.ts'
import { randomSecret, sha256 } from '../../server/crypto.ts'
import type { VerifiedSession } from './session.ts'
import type { Clock } from '../../server/clock.ts'
import type { Revocations } from './revocations.ts'

/** What a CLI token starts with, so the guard tells it from a session JWT without trying both. */
export const CLI_TOKEN_PREFIX = 'fbcli_'
/** DESIGN §19: a CLI token lives 30 days. */
export const CLI_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000
/** The routes a CLI token reaches: the developer portal and console, nothing else (DESIGN §19). */
export const CLI_TOKEN_ROOT = '/developer/'
/** "Last used" is written at most this often per token: a listen session polls, a write per request would not pay. */
const LAST_USED_RESOLUTION_MS = 60_000

export interface CliTokenView { id: string, name: string, createdAt: Date, expiresAt: Date, lastUsedAt: Date | null }

/** What the CLI tokens' functions run against; `revocations` ends a revoked token's live streams. */
export interface CliTokensContext {
  executor: Executor
  clock: Clock
  revocations: Pick<Revocations, 'revoke'>
}

/*
 * The developer CLI's tokens: opaque, hashed at rest (a database leak yields nothing usable), looked
 * up by hash (no comparison of secrets in the application), revoked by marking the row.
 */

/** Issues a token for a DEVELOPER; the only time its value exists outside the caller's hands. */
export async function issue ({ executor, clock }: Pick<CliTokensContext, 'executor' | 'clock'>, userId: string, name: string): Promise<{ token: string, view: CliTokenView }> {
  const token = randomSecret(CLI_TOKEN_PREFIX)
  const id = newId('clit')
  const createdAt = new Date(clock.nowMs())
  const expiresAt = new Date(clock.nowMs() + CLI_TOKEN_LIFETIME_MS)
  await executor.insert(cliTokens).values({ id, tokenHash: sha256(token), userId, name, createdAt, expiresAt })
  // expired and revoked rows of this developer go: the portal lists live tokens only
  await executor.delete(cliTokens).where(and(eq(cliTokens.userId, userId), lt(cliTokens.expiresAt, createdAt)))
  return { token, view: { id, name, createdAt, expiresAt, lastUsedAt: null } }
}

/** The session a valid, unrevoked, unexpired token stands for; null otherwise. */
export async function verify ({ executor, clock }: Pick<CliTokensContext, 'executor' | 'clock'>, token: string): Promise<VerifiedSession | null> {
  const at = new Date(clock.nowMs())
  const [row] = await executor.select({
    id: cliTokens.id, expiresAt: cliTokens.expiresAt, lastUsedAt: cliTokens.lastUsedAt,
    userId: users.id, role: users.role, businessId: users.businessId, email: users.email
  }).from(cliTokens).innerJoin(users, eq(users.id, cliTokens.userId))
    .where(and(eq(cliTokens.tokenHash, sha256(token)), isNull(cliTokens.revokedAt), gt(cliTokens.expiresAt, at))).limit(1)
  if (row === undefined || row.role !== 'DEVELOPER') return null
  if (row.lastUsedAt === null || at.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await executor.update(cliTokens).set({ lastUsedAt: at }).where(eq(cliTokens.id, row.id))
  }
  const exp = Math.floor(row.expiresAt.getTime() / 1000)
  return { sub: row.userId, role: row.role, businessId: row.businessId, email: row.email, jti: row.id, exp, cli: true }
}

export async function list ({ executor, clock }: Pick<CliTokensContext, 'executor' | 'clock'>, userId: string): Promise<CliTokenView[]> {
  const { id, name, createdAt, expiresAt, lastUsedAt } = cliTokens
  return await executor.select({ id, name, createdAt, expiresAt, lastUsedAt }).from(cliTokens)
    .where(and(eq(cliTokens.userId, userId), isNull(cliTokens.revokedAt), gt(cliTokens.expiresAt, new Date(clock.nowMs()))))
    .orderBy(desc(cliTokens.createdAt))
}

/**
 * Revokes one of the developer's tokens (another's is not theirs); false when they have no such live
 * token. Its live streams (listen, logs) end in every process, as at logout.
 */
export async function revoke ({ executor, clock, revocations }: CliTokensContext, userId: string, id: string): Promise<boolean> {
  const [row] = await executor.update(cliTokens).set({ revokedAt: new Date(clock.nowMs()) })
    .where(and(eq(cliTokens.id, id), eq(cliTokens.userId, userId), isNull(cliTokens.revokedAt)))
    .returning({ expiresAt: cliTokens.expiresAt })
  if (row === undefined) return false
  await revocations.revoke(id, userId, row.expiresAt)
  return true
}

/** The `cliTokens` decorator: issued by the device flow, listed and revoked in the portal. */
export function createCliTokenService (context: CliTokensContext) {
  return bindTo(context, { issue, verify, list, revoke })
}

export type CliTokenService = ReturnType<typeof createCliTokenService>
