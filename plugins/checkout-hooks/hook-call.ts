import { Ajv, type ValidateFunction } from 'ajv'
import { request, type Dispatcher } from 'undici'
import { newId } from '../../server/db/ids.ts'
import { decryptSecret } from '../../server/crypto.ts'
import { signatureHeaders, unixSeconds, USER_AGENT } from '../../server/signing.ts'
import { API_VERSION_HEADER, downgrade, shapeChanges, upgrade } from '../../sdk/src/contract/api-versions.ts'
import { CONNECTION_FAILED, literalTargetRefused, type OutboundPolicy } from '../../server/url-policy.ts'
import { addFormats } from '../../server/validation.ts'
import type { HookPoint } from '../apps/manifest/schemas.ts'
import { HOOK_ANSWERS, type HookAnswer } from './schemas.ts'
import type { RelayOutcome, RelayRequest } from '../relay/service.ts'
import type { Clock } from '../../server/clock.ts'
import type { ActiveHook } from './active-hooks.ts'

/** Hook answers are small JSON documents; anything bigger is a failure, not a memory risk. */
const MAX_ANSWER_BYTES = 64 * 1024

/** What one call needs besides the hook: the clock, the secrets' key, the outbound policy, the relay, the currency. */
export interface HookCallDeps {
  clock: Clock
  encryptionKey: Buffer
  outbound: OutboundPolicy
  /** The developer's `listen` session (DESIGN §19): answers the call instead of the network while connected; null when not. */
  relay?: (request: RelayRequest) => Promise<RelayOutcome | null>
  /** The business's currency, for the API versions whose money objects name it. */
  currencyOf: (businessId: string) => Promise<string>
}

/** What was sent and what came back, for the call log (`id`: the call's log id, its webhook-id; `text`: the answer as received, if any). */
interface Exchange { id: string, request: string, text: string | null, headers?: Record<string, string>, relayed?: boolean }
export type HookResult<P extends HookPoint> =
  | { ok: true, hook: ActiveHook, answer: HookAnswer<P>, statusCode: number, durationMs: number, exchange: Exchange }
  | { ok: false, hook: ActiveHook, error: string, statusCode: number | null, durationMs: number, exchange: Exchange }

const ajv = addFormats(new Ajv({ allErrors: false, strict: false }))
const validators = Object.fromEntries(Object.entries(HOOK_ANSWERS).map(([point, schema]) => [point, ajv.compile(schema)])) as Record<HookPoint,
  ValidateFunction>

/** A relayed answer read as a direct one: the same size bound, and no answer in time is a timeout. */
function relayedAnswer (outcome: RelayOutcome): { statusCode: number, text: string, headers: Record<string, string> } {
  if (!outcome.answered) throw Object.assign(new Error('no relayed answer in time'), { name: 'TimeoutError' })
  if (outcome.answer.body.length > MAX_ANSWER_BYTES) throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`)
  return { statusCode: outcome.answer.status, text: outcome.answer.body, headers: outcome.answer.headers }
}

async function post (agent: Dispatcher, hook: ActiveHook, body: string, headers: Record<string, string>)
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

/** The checkout's currency as its newest-version payload names it (a money object's), so that upgrading an answer reads no business row. */
function currencyIn (data: Record<string, unknown>): string | undefined {
  for (const value of Object.values(data)) {
    if (typeof value === 'object' && value !== null && typeof (value as { currency?: unknown }).currency === 'string') return (value as { currency: string }).currency
  }
  return undefined
}

/** The first money object of an answer whose currency is not the checkout's (50 JPY must not be applied as 50 US cents). */
async function foreignMoney (answer: Record<string, unknown>, checkoutCurrency: () => Promise<string>): Promise<{ field: string, currency: string } | null> {
  for (const [field, value] of Object.entries(answer)) {
    const named = typeof value === 'object' && value !== null ? (value as { currency?: unknown }).currency : undefined
    if (typeof named === 'string' && named.toUpperCase() !== (await checkoutCurrency()).toUpperCase()) return { field, currency: named }
  }
  return null
}

/**
 * One call: the payload shaped for the installation's pinned version, signed with its webhook secret,
 * sent (or relayed to the developer's `listen` session) within the hook's timeout, and the answer
 * checked against the hook point's schema.
 */
export async function callOnce<P extends HookPoint> (
  deps: HookCallDeps, agent: Dispatcher, hook: ActiveHook, businessId: string, hookPoint: P, data: Record<string, unknown>
): Promise<HookResult<P>> {
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
      : await deps.relay({ appId: hook.appId, businessId, kind: 'hook', name: hookPoint, url: hook.url, headers: sent, body, timeoutMs: hook.timeout })
    exchange.relayed = relayed !== null
    const { statusCode, text, headers } = relayed === null ? await post(agent, hook, body, sent) : relayedAnswer(relayed)
    exchange.text = text
    exchange.headers = headers
    if (statusCode < 200 || statusCode > 299) return failure(`answered HTTP ${statusCode}`, statusCode)
    let answer: unknown
    try {
      answer = JSON.parse(text)
    } catch {
      return failure('answer is not JSON', statusCode)
    }
    if (shapeChanges(`answer:${hookPoint}`, hook.apiVersion)) {
      answer = upgrade(`answer:${hookPoint}`, answer, hook.apiVersion, { currency: currencyIn(data) ?? await deps.currencyOf(businessId) })
    }
    const validate = validators[hookPoint]
    if (!validate(answer)) {
      const first = validate.errors?.[0]
      return failure(`answer does not match ${hookPoint}: ${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`.trim(), statusCode)
    }
    const foreign = await foreignMoney(answer as Record<string, unknown>, async () => currencyIn(data) ?? await deps.currencyOf(businessId))
    if (foreign !== null) return failure(`answer's ${foreign.field} is in ${foreign.currency}, not in the checkout's currency`, statusCode)
    return { ok: true, hook, answer: answer as HookAnswer<P>, statusCode, durationMs: elapsed(), exchange }
  } catch (error) {
    const name = (error as Error).name
    const message = name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(String((error as Error).message))
      ? `no answer within ${hook.timeout} ms`
      : `request failed: ${deps.outbound.production ? CONNECTION_FAILED : (error as Error).message}`
    return failure(message, null)
  }
}
