import { hookCalls } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { bindExecutor } from '../../server/db/bind.ts'
import { outboundAgent } from '../../server/url-policy.ts'
import { inSpan, SpanKind, SpanStatusCode } from '../../server/telemetry.ts'
import type { HookPoint } from '../apps/manifest/schemas.ts'
import { hooksOf, type ActiveHook } from './active-hooks.ts'
import { callLog, callLogLines, callOfApp, callsOfOrder, pruneCalls, type LoggedCall } from './call-log.ts'
import { callOnce, type HookCallDeps, type HookResult } from './hook-call.ts'

export type { ActiveHook } from './active-hooks.ts'
export type { LoggedCall } from './call-log.ts'
export type { HookResult } from './hook-call.ts'

const LOG_FLUSH_MS = 250
const LOG_BATCH = 200

/**
 * Calls apps synchronously during checkout: finds the active hooks of a business's active
 * installations (with the scope the hook point needs: active-hooks.ts), calls them in ascending
 * priority (ties: earlier install first), each signed with its installation's webhook secret and
 * bounded by its own timeout, and checks each answer against the hook point's schema (hook-call.ts).
 * Every call is logged for the developer (call-log.ts). A small factory over its state: the HTTP
 * agent, the buffered call-log lines and the timer that writes them.
 */
export function createHookRunner (deps: HookCallDeps & {
  db: Db, onLogError: (error: unknown) => void
  /** After calls were logged (analytics counters, the console's live tail); must not throw. */
  onLogged?: (calls: LoggedCall[]) => void
  /** After each call, as it returns (metrics); must not throw. */
  onCalled?: (hookPoint: HookPoint, result: HookResult<HookPoint>) => void
}) {
  const agent = outboundAgent(deps.outbound)
  const reads = bindExecutor(deps.db, { hooksOf, callLog, callOfApp, callsOfOrder, pruneCalls })

  async function call<P extends HookPoint> (hook: ActiveHook, businessId: string, hookPoint: P, data: Record<string, unknown>): Promise<HookResult<P>> {
    // a span in the checkout's trace; the HTTP request (undici's instrumentation) is its child
    const result = await inSpan(`hook call ${hookPoint}`, { kind: SpanKind.CLIENT, attributes: { 'hook.point': hookPoint, 'app.id': hook.appId } }, async (span) => {
      const answered = await callOnce(deps, agent, hook, businessId, hookPoint, data)
      if (answered.statusCode !== null) span.setAttribute('http.response.status_code', answered.statusCode)
      if (!answered.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: answered.error })
      return answered
    })
    deps.onCalled?.(hookPoint, result as HookResult<HookPoint>)
    return result
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
    pending.push(...callLogLines(businessId, hookPoint, results, orderId, deps.clock.now()))
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
    const hooks = ((options.hooks ?? await reads.hooksOf(businessId)).get(hookPoint) ?? []).filter((hook) => options.only?.(hook) ?? true)
    const results: Array<HookResult<P>> = []
    for (const hook of hooks) {
      const result = await call(hook, businessId, hookPoint, options.data(results))
      results.push(result)
      if (options.stop?.(result) === true) break
    }
    log(businessId, hookPoint, results as Array<HookResult<HookPoint>>, options.orderId ?? null)
    return results
  }

  return {
    hooksOf: reads.hooksOf,
    call,
    run,
    flush,
    close,
    callLog: reads.callLog,
    /** One call of the app's log with what was sent, the answer and what the checkout did about a failure; another app's → null. */
    callOfApp: async (appId: string, id: string) => { await flush(); return await reads.callOfApp(appId, id) },
    /** The calls of the checkout that placed an order of this business, in call order (written ones first). */
    callsOfOrder: async (businessId: string, orderId: string) => { await flush(); return await reads.callsOfOrder(businessId, orderId) },
    pruneCalls: reads.pruneCalls
  }
}

export type HookRunner = ReturnType<typeof createHookRunner>
