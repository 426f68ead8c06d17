import { randomInt, randomBytes } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import { deviceAuthorizations } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { bindTo } from '../../server/db/bind.ts'
import { newId } from '../../server/db/ids.ts'
import { sha256 } from '../../server/crypto.ts'
import { conflict, httpError, oauthError } from './errors.ts'
import { USER_CODE_ALPHABET, USER_CODE_LENGTH } from './schemas.ts'
import type { Clock } from '../../server/clock.ts'

export { CLI_CLIENT_ID, DEVICE_CODE_GRANT } from './schemas.ts'
/** RFC 8628 §6.1: codes live minutes, not hours. */
export const DEVICE_CODE_TTL_MS = 15 * 60 * 1000
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5

/** Upper case, separators dropped: `bcdf-ghjk` and `BCDFGHJK` are the same code; null when it cannot be one. */
export function normalizeUserCode (input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '')
  if (code.length !== USER_CODE_LENGTH) return null
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return null
  return code
}

function newUserCode (): string {
  let code = ''
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

/** What the device flow's functions run against. */
export interface DeviceFlowContext {
  executor: Db
  intervalSeconds: number
  /** Where the developer enters the code: the admin's /device screen. */
  verificationUri: () => string
  /** Issues the CLI token once a developer approved (the auth capability's). */
  issueToken: (userId: string, name: string) => Promise<{ token: string, expiresAt: Date }>
  clock: Clock
}

async function pending ({ executor, clock }: DeviceFlowContext, userCode: string) {
  const code = normalizeUserCode(userCode)
  if (code === null) throw httpError(400, 'user_code_invalid', 'A code is 8 letters, like BCDF-GHJK')
  const [row] = await executor.select().from(deviceAuthorizations).where(eq(deviceAuthorizations.userCodeHash, sha256(code))).limit(1)
  if (row === undefined || row.expiresAt.getTime() <= clock.nowMs()) throw httpError(404, 'user_code_not_found', 'No login is waiting for this code: it may have expired; run `app-platform login` again')
  return row
}

/** §3.1–3.2: a new authorization; the device code goes to the CLI, the user code to the developer. */
export async function start (context: DeviceFlowContext, deviceName: string, requestedFrom: string) {
  const { executor } = context
  const at = context.clock.nowMs()
  await executor.delete(deviceAuthorizations).where(lt(deviceAuthorizations.expiresAt, new Date(at)))
  const deviceCode = randomBytes(32).toString('base64url')
  const userCode = newUserCode()
  await executor.insert(deviceAuthorizations).values({
    id: newId('dev'),
    deviceCodeHash: sha256(deviceCode),
    userCodeHash: sha256(normalizeUserCode(userCode) as string),
    clientName: deviceName,
    requestedFrom,
    status: 'pending',
    intervalSeconds: context.intervalSeconds,
    expiresAt: new Date(at + DEVICE_CODE_TTL_MS),
    createdAt: new Date(at)
  })
  const verificationUri = context.verificationUri()
  const complete = new URL(verificationUri)
  complete.searchParams.set('user_code', userCode)
  return {
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: verificationUri,
    verification_uri_complete: complete.toString(),
    expires_in: DEVICE_CODE_TTL_MS / 1000,
    interval: context.intervalSeconds
  }
}

/**
 * What the /device screen shows before the developer decides: the name the device chose for itself, and
 * where and when it asked, which the platform saw (§5.4: a phishing name must not pass for the platform's word).
 */
export async function describe (context: DeviceFlowContext, userCode: string) {
  const row = await pending(context, userCode)
  const { clientName, requestedFrom, status } = row
  return { clientName, requestedFrom, status, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() }
}

/** The signed-in developer approves or denies the login waiting under this user code (once). */
export async function decide (context: DeviceFlowContext, userId: string, userCode: string, decision: 'approve' | 'deny'): Promise<void> {
  const row = await pending(context, userCode)
  const [updated] = await context.executor.update(deviceAuthorizations)
    .set({ status: decision === 'approve' ? 'approved' : 'denied', userId })
    .where(and(eq(deviceAuthorizations.id, row.id), eq(deviceAuthorizations.status, 'pending')))
    .returning({ id: deviceAuthorizations.id })
  if (updated === undefined) throw conflict('device_login_decided', 'This login was already approved or denied')
}

/** §3.4–3.5: the CLI's poll at the token endpoint; the token once, the RFC's error codes otherwise. */
export async function poll ({ executor, clock, issueToken }: DeviceFlowContext, deviceCode: string) {
  const [row] = await executor.select().from(deviceAuthorizations).where(eq(deviceAuthorizations.deviceCodeHash, sha256(deviceCode))).limit(1)
  if (row === undefined || row.status === 'issued') throw oauthError('invalid_grant', 'Unknown or already used device_code')
  const at = clock.nowMs()
  if (row.expiresAt.getTime() <= at) throw oauthError('expired_token', 'The device code expired: start the login again')
  if (row.status === 'denied') throw oauthError('access_denied', 'The login was denied')
  const tooSoon = row.lastPolledAt !== null && at - row.lastPolledAt.getTime() < row.intervalSeconds * 1000
  const intervalSeconds = tooSoon ? row.intervalSeconds + SLOW_DOWN_STEP_SECONDS : row.intervalSeconds
  await executor.update(deviceAuthorizations).set({ lastPolledAt: new Date(at), intervalSeconds }).where(eq(deviceAuthorizations.id, row.id))
  if (tooSoon) throw oauthError('slow_down', `Polling too fast: wait ${intervalSeconds} seconds between requests`)
  if (row.status === 'pending' || row.userId === null) throw oauthError('authorization_pending', 'Waiting for the developer to approve the code')
  const [claimed] = await executor.update(deviceAuthorizations).set({ status: 'issued' })
    .where(and(eq(deviceAuthorizations.id, row.id), eq(deviceAuthorizations.status, 'approved')))
    .returning({ id: deviceAuthorizations.id })
  if (claimed === undefined) throw oauthError('invalid_grant', 'Unknown or already used device_code')
  const issued = await issueToken(row.userId, row.clientName)
  return { access_token: issued.token, token_type: 'bearer' as const, expires_in: Math.floor((issued.expiresAt.getTime() - at) / 1000) }
}

/** RFC 8628 device authorization for the developer CLI: the only writer of device_authorizations. */
export function createDeviceFlow (context: DeviceFlowContext) {
  return bindTo(context, { start, describe, decide, poll })
}

export type DeviceFlow = ReturnType<typeof createDeviceFlow>
