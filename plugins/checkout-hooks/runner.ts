import { Ajv, type ValidateFunction } from 'ajv'
import { request } from 'undici'
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm'
import { deleteInBatches, logPage } from '../../server/db/rows.ts'
import { appExtensions, apps, hookCalls, installations } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { decryptSecret } from '../../server/crypto.ts'
import { signatureHeaders, unixSeconds, USER_AGENT } from '../../server/signing.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import { API_VERSION_HEADER, DOMAIN_API_VERSION, downgrade, isApiVersion, shapeChanges, upgrade, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { CONNECTION_FAILED, literalTargetRefused, outboundAgent, type OutboundPolicy } from '../../server/url-policy.ts'
import { addFormats } from '../../server/validation.ts'
import { inSpan, SpanKind, SpanStatusCode } from '../../server/telemetry.ts'
import { HOOK_DEFAULTS, HOOK_SCOPES, type HookPoint } from '../apps/manifest/schemas.ts'
import { HOOK_ANSWERS, type HookAnswer } from './schemas.ts'
import type { RelayOutcome, RelayRequest } from '../relay/service.ts'
import type { Clock } from '../../server/clock.ts'

/** Hook answers are small JSON documents; anything bigger is a failure, not a memory risk. */
const MAX_ANSWER_BYTES = 64 * 1024
const LOG_FLUSH_MS = 250
const LOG_BATCH = 200
/** Characters of a hook's answer kept in the call log. */
export const ANSWER_LOG_CHARS = 4096

export interface ActiveHook {
  appId: string
  /** The app's name, for what the customer is told (the delivery fee's source). */
  appName: string
  installationId: string
  url: string
  /** The manifest hook's path (appended to the webhook URL; a relay appends it to the developer's local URL). */
  path: string
  timeout: number
  priority: number
  failurePolicy: 'open' | 'closed'
  secretEncrypted: string
  /** The app's webhookSignatureScheme: hook calls are signed as its webhooks are. */
  signatureScheme: SignatureScheme
  /** The installation's pinned API version: the payload is shaped for it, its answer read in it. */
  apiVersion: ApiVersion
}

/** What was sent and what came back, for the call log (`id`: the call's log id, its webhook-id; `text`: the answer as received, if any). */
interface Exchange { id: string, request: string, text: string | null, headers?: Record<string, string>, relayed?: boolean }
export type HookResult<P extends HookPoint> =
  | { ok: true, hook: ActiveHook, answer: HookAnswer<P>, statusCode: number, durationMs: number, exchange: Exchange }
  | { ok: false, hook: ActiveHook, error: string, statusCode: number | null, durationMs: number, exchange: Exchange }

/** A written call-log line, as the analytics and the live tail see it. */
export type LoggedCall = typeof hookCalls.$inferInsert & { id: string, createdAt: Date }

const ajv = addFormats(new Ajv({ allErrors: false, strict: false }))
const validators = Object.fromEntries(Object.entries(HOOK_ANSWERS).map(([point, schema]) => [point, ajv.compile(schema)])) as Record<HookPoint,
  ValidateFunction>

function publicCall (row: typeof hookCalls.$inferSelect) {
  return {
    id: row.id, installationId: row.installationId, businessId: row.businessId, hookPoint: row.hookPoint, url: row.url, statusCode: row.statusCode,
    durationMs: row.durationMs, error: row.error, success: row.success, failurePolicy: row.failurePolicy, relayed: row.relayed,
    createdAt: row.createdAt.toISOString()
  }
}

function parseAnswer (text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** What the checkout does when a hook fails (DESIGN §10), in the words the console shows. */
export function policyApplied (hookPoint: HookPoint, failurePolicy: 'open' | 'closed'): string {
  switch (hookPoint) {
    case 'checkout.payment_methods': return "The app's payment methods were left out of the checkout"
    case 'checkout.shipping_rates': return 'The delivery fee so far was kept'
    case 'order.calculate_discounts': return 'No discount from this app was added'
    case 'checkout.create_payment': return 'The checkout failed with 502; the order stays unpaid'
    case 'order.validate': return failurePolicy === 'closed'
      ? 'Fail-closed (manifest failurePolicy "closed"): the order was refused'
      : 'Fail-open: the order went through without this validation'
  }
}

/** A relayed answer read as a direct one: the same size bound, and no answer in time is a timeout. */
function relayedAnswer (outcome: RelayOutcome): { statusCode: number, text: string, headers: Record<string, string> } {
  if (!outcome.answered) throw Object.assign(new Error('no relayed answer in time'), { name: 'TimeoutError' })
  if (outcome.answer.body.length > MAX_ANSWER_BYTES) throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`)
  return { statusCode: outcome.answer.status, text: outcome.answer.body, headers: outcome.answer.headers }
}

/** A hook's URL: the app's webhook URL with the hook's path appended. */
export function hookUrl (webhookUrl: string, path: string): string {
  return `${webhookUrl.replace(/\/+$/, '')}${path}`
}

/**
 * Calls apps synchronously during checkout: finds the active hooks of a business's active
 * installations (with the scope the hook point needs), calls them in ascending priority (ties: earlier
 * install first), each signed with its installation's webhook secret and bounded by its own timeout,
 * and checks each answer against the hook point's schema. Every call is logged for the developer.
 */
export function createHookRunner (deps: {
  db: Db, clock: Clock, encryptionKey: Buffer, outbound: OutboundPolicy, onLogError: (error: unknown) => void
  /** After calls were logged (analytics counters, the console's live tail); must not throw. */
  onLogged?: (calls: LoggedCall[]) => void
  /** After each call, as it returns (metrics); must not throw. */
  onCalled?: (hookPoint: HookPoint, result: HookResult<HookPoint>) => void
  /** The developer's `listen` session (DESIGN §19): answers the call instead of the network while connected; null when not. */
  relay?: (request: RelayRequest) => Promise<RelayOutcome | null>
  /** The business's currency, for the API versions whose money objects name it. */
  currencyOf: (businessId: string) => Promise<string>
}) {
  const agent = outboundAgent(deps.outbound)
  /** Every active hook of the business, by hook point, in call order: one query per checkout step. */
  async function hooksOf (businessId: string): Promise<Map<HookPoint, ActiveHook[]>> {
    const rows = await deps.db.select({
      appId: apps.id, appName: apps.name, installationId: installations.id, webhookUrl: apps.webhookUrl, definition: appExtensions.definition,
      hookPoint: appExtensions.key, grantedScopes: installations.grantedScopes, secretEncrypted: installations.webhookSecretEncrypted,
      signatureScheme: apps.webhookSignatureScheme, apiVersion: installations.apiVersion
    })
      .from(appExtensions)
      .innerJoin(installations, eq(installations.appId, appExtensions.appId))
      .innerJoin(apps, eq(apps.id, appExtensions.appId))
      .where(and(
        eq(installations.businessId, businessId), isNull(installations.uninstalledAt),
        eq(appExtensions.kind, 'hook'), eq(appExtensions.isActive, true)
      ))
      .orderBy(sql`coalesce((${appExtensions.definition}->>'priority')::int, ${HOOK_DEFAULTS.priority})`, installations.installedAt)
    const byPoint = new Map<HookPoint, ActiveHook[]>()
    for (const row of rows) {
      const hookPoint = row.hookPoint as HookPoint
      // the installation must hold the scope the hook point needs (a pending re-consent does not count)
      if (row.webhookUrl === null || !row.grantedScopes.includes(HOOK_SCOPES[hookPoint])) continue
      const definition = row.definition as { url: string, timeout?: number, priority?: number, failurePolicy?: 'open' | 'closed' }
      byPoint.set(hookPoint, [...(byPoint.get(hookPoint) ?? []), {
        appId: row.appId,
        appName: row.appName,
        installationId: row.installationId,
        url: hookUrl(row.webhookUrl as string, definition.url),
        path: definition.url,
        timeout: Math.min(definition.timeout ?? HOOK_DEFAULTS.timeout, HOOK_DEFAULTS.maxTimeout),
        priority: definition.priority ?? HOOK_DEFAULTS.priority,
        failurePolicy: definition.failurePolicy ?? 'open',
        secretEncrypted: row.secretEncrypted,
        signatureScheme: row.signatureScheme,
        apiVersion: isApiVersion(row.apiVersion) ? row.apiVersion : DOMAIN_API_VERSION
      }])
    }
    return byPoint
  }

  async function post (hook: ActiveHook, body: string, headers: Record<string, string>)
    : Promise<{ statusCode: number, text: string, headers: Record<string, string> }> {
    const response = await request(hook.url, {
      method: 'POST', body, headers, dispatcher: agent, headersTimeout: hook.timeout, bodyTimeout: hook.timeout, signal: AbortSignal.timeout(hook.timeout)
    })
    let text = ''
    for await (const chunk of response.body) {
      text += chunk
      if (text.length > MAX_ANSWER_BYTES) {
        response.body.destroy()
        throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`)
      }
    }
    const answered = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]))
    return { statusCode: response.statusCode, text, headers: answered }
  }

  async function call<P extends HookPoint> (hook: ActiveHook, businessId: string, hookPoint: P, data: Record<string, unknown>): Promise<HookResult<P>> {
    // a span in the checkout's trace; the HTTP request (undici's instrumentation) is its child
    const result = await inSpan(`hook call ${hookPoint}`, { kind: SpanKind.CLIENT, attributes: { 'hook.point': hookPoint, 'app.id': hook.appId } }, async (span) => {
      const answered = await callOnce(hook, businessId, hookPoint, data)
      if (answered.statusCode !== null) span.setAttribute('http.response.status_code', answered.statusCode)
      if (!answered.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: answered.error })
      return answered
    })
    deps.onCalled?.(hookPoint, result as HookResult<HookPoint>)
    return result
  }

  async function callOnce<P extends HookPoint> (hook: ActiveHook, businessId: string, hookPoint: P, data: Record<string, unknown>): Promise<HookResult<P>> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const timestamp = deps.clock.now()
    // the runner speaks the newest version (its callers build the payload in it): an older version's payload is downgraded, its answer upgraded
    const payload = shapeChanges(`hook:${hookPoint}`, hook.apiVersion) ? downgrade(`hook:${hookPoint}`, data, hook.apiVersion) : data
    const envelope = { hookPoint, businessId, timestamp: timestamp.toISOString(), data: payload }
    const body = JSON.stringify(envelope)
    const unix = unixSeconds(timestamp)
    const exchange: Exchange = { id: newId('hkc'), request: body, text: null }
    const failure = (error: string, statusCode: number | null): HookResult<P> => ({ ok: false, hook, error, statusCode, durationMs: elapsed(), exchange })
    try {
      if (literalTargetRefused(hook.url, deps.outbound)) return failure(`request failed: ${CONNECTION_FAILED}`, null)
      const secret = decryptSecret(hook.secretEncrypted, deps.encryptionKey)
      const sent = {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...signatureHeaders(hook.signatureScheme, { secret, id: exchange.id, timestamp: unix, rawBody: body }),
        [API_VERSION_HEADER.toLowerCase()]: hook.apiVersion
      }
      const relayed = deps.relay === undefined
        ? null
        : await deps.relay({ appId: hook.appId, businessId, kind: 'hook', name: hookPoint, path: hook.path, headers: sent, body, timeoutMs: hook.timeout })
      exchange.relayed = relayed !== null
      const { statusCode, text, headers } = relayed === null ? await post(hook, body, sent) : relayedAnswer(relayed)
      exchange.text = text
      exchange.headers = headers
      if (statusCode < 200 || statusCode > 299) return failure(`answered HTTP ${statusCode}`, statusCode)
      let answer: unknown
      try {
        answer = JSON.parse(text)
      } catch {
        return failure('answer is not JSON', statusCode)
      }
      if (shapeChanges(`answer:${hookPoint}`, hook.apiVersion)) answer = upgrade(`answer:${hookPoint}`, answer, hook.apiVersion, { currency: await deps.currencyOf(businessId) })
      const validate = validators[hookPoint]
      if (!validate(answer)) {
        const first = validate.errors?.[0]
        return failure(`answer does not match ${hookPoint}: ${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`.trim(), statusCode)
      }
      return { ok: true, hook, answer: answer as HookAnswer<P>, statusCode, durationMs: elapsed(), exchange }
    } catch (error) {
      const name = (error as Error).name
      const message = name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(String((error as Error).message))
        ? `no answer within ${hook.timeout} ms`
        : `request failed: ${deps.outbound.production ? CONNECTION_FAILED : (error as Error).message}`
      return failure(message, null)
    }
  }

  /**
   * Call logs are buffered and written in batches, off the checkout's path: on the embedded database
   * every write would otherwise queue in front of the next customer's queries. A lost log line must
   * never fail an order.
   */
  let pending: LoggedCall[] = []
  let flushing: Promise<void> = Promise.resolve()
  function flush (): Promise<void> {
    if (pending.length === 0) return flushing
    const rows = pending
    pending = []
    flushing = flushing.then(async () => {
      await deps.db.insert(hookCalls).values(rows)
      deps.onLogged?.(rows)
    }).catch(deps.onLogError)
    return flushing
  }
  const timer = setInterval(() => { void flush() }, LOG_FLUSH_MS)
  timer.unref()

  function log (businessId: string, hookPoint: HookPoint, results: Array<HookResult<HookPoint>>, orderId: string | null): void {
    pending.push(...results.map((result) => ({
      id: result.exchange.id,
      appId: result.hook.appId,
      installationId: result.hook.installationId,
      businessId,
      hookPoint,
      url: result.hook.url,
      success: result.ok,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.ok ? null : result.error,
      requestBody: result.exchange.request,
      answer: result.exchange.text === null ? null : result.exchange.text.slice(0, ANSWER_LOG_CHARS),
      relayed: result.exchange.relayed === true,
      failurePolicy: result.hook.failurePolicy,
      orderId,
      createdAt: deps.clock.now()
    })))
    if (pending.length >= LOG_BATCH) void flush()
  }

  async function close (): Promise<void> {
    clearInterval(timer)
    await flush()
    await agent.close()
  }

  /**
   * Calls the point's hooks one after another in priority order; `data` sees the results so far
   * (shipping rates chain), `stop` ends early (a failed validation), `only` picks hooks (the app
   * that owns a payment method).
   */
  async function run<P extends HookPoint> (businessId: string, hookPoint: P, options: {
    /** Preloaded with hooksOf, when one checkout step calls several points. */
    hooks?: Map<HookPoint, ActiveHook[]>
    data: (previous: Array<HookResult<P>>) => Record<string, unknown>
    stop?: (result: HookResult<P>) => boolean
    only?: (hook: ActiveHook) => boolean
    /** The order this checkout places (its calls are shown on the order); none for a quote. */
    orderId?: string
  }): Promise<Array<HookResult<P>>> {
    const hooks = ((options.hooks ?? await hooksOf(businessId)).get(hookPoint) ?? []).filter((hook) => options.only?.(hook) ?? true)
    const results: Array<HookResult<P>> = []
    for (const hook of hooks) {
      const result = await call(hook, businessId, hookPoint, options.data(results))
      results.push(result)
      if (options.stop?.(result) === true) break
    }
    log(businessId, hookPoint, results as Array<HookResult<HookPoint>>, options.orderId ?? null)
    return results
  }

  /** The hook call log of an app, newest first (the developer's console). */
  async function callLog (appId: string, query: { page?: number, limit?: number, hookPoint?: string, success?: boolean, before?: string }) {
    const filters: SQL[] = [eq(hookCalls.appId, appId)]
    if (query.hookPoint !== undefined) filters.push(eq(hookCalls.hookPoint, query.hookPoint))
    if (query.success !== undefined) filters.push(eq(hookCalls.success, query.success))
    const { rows, total, page, limit, nextCursor } = await logPage(deps.db, hookCalls, and(...filters), query)
    return { data: rows.map(publicCall), total, page, limit, nextCursor }
  }

  /** One call of the app's log with what was sent, the answer and what the checkout did about a failure; another app's → null. */
  async function callOfApp (appId: string, id: string) {
    await flush()
    const [row] = await deps.db.select().from(hookCalls).where(and(eq(hookCalls.appId, appId), eq(hookCalls.id, id))).limit(1)
    if (row === undefined) return null
    return {
      ...publicCall(row),
      requestBody: row.requestBody ?? null,
      answer: row.answer,
      policyApplied: row.success ? null : policyApplied(row.hookPoint as HookPoint, row.failurePolicy ?? 'open')
    }
  }

  /**
   * The calls of the checkout that placed an order of this business, in call order, with each answer
   * parsed (null when none came or it was not JSON): the merchant's order detail.
   */
  async function callsOfOrder (businessId: string, orderId: string) {
    await flush()
    const rows = await deps.db.select().from(hookCalls).where(and(eq(hookCalls.businessId, businessId), eq(hookCalls.orderId, orderId)))
      .orderBy(hookCalls.createdAt, hookCalls.id)
    return rows.map((row) => ({
      ...publicCall(row),
      appId: row.appId,
      answer: parseAnswer(row.answer),
      policyApplied: row.success ? null : policyApplied(row.hookPoint as HookPoint, row.failurePolicy ?? 'open')
    }))
  }

  /** Calls older than the retention, which follows the webhook log's (DELIVERY_LOG_RETENTION_DAYS). */
  async function pruneCalls (retentionDays: number): Promise<number> {
    return await deleteInBatches(deps.db, 'hook_calls', 'id', sql`created_at < now() - ${retentionDays}::int * interval '1 day'`)
  }

  return { hooksOf, call, run, flush, close, callLog, callOfApp, callsOfOrder, pruneCalls }
}

export type HookRunner = ReturnType<typeof createHookRunner>
