import { outboundUrlProblem } from '../../../server/url-policy.ts'
import { HOOK_DEFAULTS, HOOK_SCOPES, type HookPoint } from '../../apps/manifest/schemas.ts'
import type { HookResult } from '../../checkout-hooks/service.ts'
import { EVIDENCE_BYTES } from '../http.ts'
import { once, type CheckContext, type HookDefinition } from '../context.ts'
import { fail, pass, type Check, type Verdict } from '../runner.ts'
import type { Evidence } from '../schemas.ts'
import type { Clock } from '../../../server/clock.ts'

const SAMPLE_ITEMS = [{ productId: 'prod_app_check_1', quantity: 2 }, { productId: 'prod_app_check_2', quantity: 1 }]
const SAMPLE_SUBTOTAL = 3600

/**
 * A request such as a checkout on the sandbox store sends (DESIGN §10), per hook point: in the newest
 * API version's shape, as the checkout builds it (the hook runner downgrades it for an older pin).
 */
async function sampleData (context: CheckContext, hookPoint: HookPoint): Promise<Record<string, unknown>> {
  const businessId = context.business.id
  const money = (amount: number) => ({ amount, currency: 'USD' })
  switch (hookPoint) {
    case 'checkout.payment_methods': return { businessId }
    case 'checkout.shipping_rates': return { deliveryMethod: 'DELIVERY', locality: 'Downtown', subtotal: money(SAMPLE_SUBTOTAL), builtInFee: money(500) }
    case 'order.validate': return { items: SAMPLE_ITEMS, subtotal: money(SAMPLE_SUBTOTAL), deliveryMethod: 'DELIVERY' }
    case 'order.calculate_discounts': return { items: SAMPLE_ITEMS, subtotal: money(SAMPLE_SUBTOTAL), promoDiscount: money(0), deliveryFee: money(500) }
    case 'checkout.create_payment': {
      // one of the app's own methods, as a customer would have picked it
      const methods = await once(context, 'hooks.checkout.payment_methods', async () => null as HookResult<HookPoint> | null)
      const first = methods?.ok === true ? (methods.answer as { methods: Array<{ id: string }> }).methods[0]?.id : undefined
      return {
        orderId: 'ord_app_check', amount: money(SAMPLE_SUBTOTAL + 500), currency: 'USD', paymentMethodId: first ?? 'app-check', businessId,
        description: 'Order APP-CHECK (a test by the app checks)'
      }
    }
  }
}

function hookEvidence (result: HookResult<HookPoint>, url: string, clock: Clock): Evidence {
  return {
    request: `POST ${url} (${result.exchange.request.length} bytes, signed)`,
    status: result.statusCode,
    headers: result.exchange.headers ?? {},
    body: Buffer.from(result.exchange.text ?? '').subarray(0, EVIDENCE_BYTES).toString('utf8'),
    durationMs: result.durationMs,
    at: new Date(clock.nowMs() - result.durationMs).toISOString()
  }
}

function hookCheck (context: CheckContext, definition: HookDefinition): Check<CheckContext> {
  const hookPoint = definition.hookPoint as HookPoint
  const timeout = Math.min(definition.timeout ?? HOOK_DEFAULTS.timeout, HOOK_DEFAULTS.maxTimeout)
  return {
    id: `hooks.${hookPoint}`,
    title: `${hookPoint} answers a sample request in time with a valid answer`,
    timeoutMs: timeout + 1000,
    run: async (): Promise<Verdict> => {
      const hook = context.activeHooks.get(hookPoint)
      if (hook === undefined) {
        const scope = HOOK_SCOPES[hookPoint]
        return fail(`The sandbox installation would not call this hook${context.installation.grantedScopes.includes(scope) ? '' : `: it lacks the ${scope} scope`}`,
          `Request the ${scope} scope and reinstall the app on your sandbox.`)
      }
      const refused = await outboundUrlProblem(hook.url, context.policy)
      if (refused !== null) return fail(`Refused by the outbound URL policy: ${refused}`, 'Point the webhook URL at a public https address the platform may call.')
      const data = await sampleData(context, hookPoint)
      const result = await once(context, `hooks.${hookPoint}`, async () => await context.callHook(hook, context.business.id, hookPoint, data))
      const shown = [hookEvidence(result, hook.url, context.clock)]
      if (result.ok) return pass(`Answered HTTP ${result.statusCode} in ${result.durationMs} ms with a valid answer`, shown)
      const error = result.error
      if (error.startsWith('no answer')) return fail(`No answer within the hook's ${timeout} ms timeout`, `Answer ${hookPoint} within ${timeout} ms (the manifest's timeout), or raise the timeout up to ${HOOK_DEFAULTS.maxTimeout} ms.`, shown)
      if (error.startsWith('answer does not match') || error === 'answer is not JSON') return fail(`The answer is not valid: ${error}`, `Answer ${hookPoint} with JSON in the shape DESIGN §10 and the SDK's HookResponseMap give.`, shown)
      return fail(`The hook call failed: ${error}`, `Answer ${hookPoint} with a 2xx and a JSON answer; the request is signed like a webhook.`, shown)
    }
  }
}

export function hookChecks (context: CheckContext): Array<Check<CheckContext>> {
  // payment methods first: create_payment is asked for one of the methods it returned
  const hooks = [...context.extensions.hooks].sort((a, b) => Number(b.hookPoint === 'checkout.payment_methods') - Number(a.hookPoint === 'checkout.payment_methods'))
  return hooks.map((definition) => hookCheck(context, definition))
}
