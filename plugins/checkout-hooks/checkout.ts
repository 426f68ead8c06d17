import type { Db, Tx } from '../../server/db/client.ts'
import { bindTo } from '../../server/db/bind.ts'
import { httpError } from './errors.ts'
import { newOrderId, quoteCheckout, type CheckoutContext, type CheckoutPipeline, type CommerceService } from '../commerce/service.ts'
import { BUILT_IN_PAYMENT_METHODS, type GuestOrderBody, type Order } from '../commerce/schemas.ts'
import type { HookPoint } from '../apps/manifest/schemas.ts'
import type { ActiveHook, HookResult, HookRunner } from './runner.ts'
import { amountOf, httpUrl, type HookAnswer, type PaymentMethod } from './schemas.ts'
import type { Clock } from '../../server/clock.ts'

const BUILT_IN_METHOD_NAMES: Record<string, string> = { CASH: 'Cash', CARD: 'Card' }
/** App payment method ids are namespaced by installation, so two apps can both call a method "card". */
export const appMethodId = (installationId: string, methodId: string): string => `${installationId}:${methodId}`
export function parseAppMethodId (id: string): { installationId: string, methodId: string } | null {
  const at = id.indexOf(':')
  return at <= 0 ? null : { installationId: id.slice(0, at), methodId: id.slice(at + 1) }
}
export const CLOSED_VALIDATION_REASON = 'This order cannot be checked right now. Please try again in a moment.'

export type QuoteInput = Omit<GuestOrderBody, 'customer' | 'paymentMethod'>
export type PaymentAnswer = HookAnswer<'checkout.create_payment'>

const okAnswers = <P extends Parameters<HookRunner['run']>[1]>(results: Array<HookResult<P>>) =>
  results.flatMap((result) => result.ok ? [{ hook: result.hook, answer: result.answer }] : [])

/**
 * The checkout as DESIGN §10 combines hooks: shipping rates chain (each sees the fee so far, the last
 * answer wins, a failure keeps the fee so far), discounts add up (capped at the subtotal), payment
 * methods are a union (a failing app's methods are dropped), order.validate must pass everywhere (fails
 * open unless the hook says failurePolicy closed), create_payment goes to the method's app only.
 */
export interface CheckoutDeps {
  executor: Db
  clock: Clock
  commerce: CommerceService
  runner: HookRunner
  /** Enqueues the expiry of an app payment inside the transaction that stores its session. */
  schedulePaymentExpiry: (tx: Tx, input: { businessId: string, orderId: string, expiresAt: Date }) => Promise<void>
  /** MAX_LINE_QUANTITY and PAYMENT_EXPIRY_MINUTES (DESIGN §17). */
  rules: { maxLineQuantity: number, paymentExpiryMinutes: number }
}

/** `paymentExpiresAt`: when the order's stock hold ends (null without a deadline). */
export interface Placed { order: Order, paymentExpiresAt: string | null, payment?: PaymentAnswer }

export interface PlaceOptions {
  /**
   * The storefront's fair stock: the order's payment, whatever the method, expires after
   * PAYMENT_EXPIRY_MINUTES (an app's earlier expiresAt wins), and its stock comes back then.
   */
  holdStock?: boolean
}

export async function appPaymentMethods (
  { runner }: CheckoutDeps, businessId: string, hooks?: Map<HookPoint, ActiveHook[]>, orderId?: string
): Promise<PaymentMethod[]> {
  const results = await runner.run(businessId, 'checkout.payment_methods', { hooks, orderId, data: () => ({ businessId }) })
  return okAnswers(results).flatMap(({ hook, answer }) => {
    const unique = new Map(answer.methods.map((m) => [m.id, m]))
    return [...unique.values()].map((m) => ({
      id: appMethodId(hook.installationId, m.id), name: m.name, description: m.description, icon: httpUrl(m.icon), provider: 'app' as const, appId: hook.appId
    }))
  })
}

/**
 * `hooks`: the business's hooks loaded once for the whole checkout operation; `orderId`: the id the
 * order will have when this checkout places one, so its calls are found from the order.
 */
export function pipelineFor (deps: CheckoutDeps, businessId: string, hooks?: Map<HookPoint, ActiveHook[]>, orderId?: string): CheckoutPipeline {
  return {
    quote: async (ctx: Readonly<CheckoutContext>) => {
      // the hook payloads speak the newest API version: money as { amount, currency } (the runner downgrades them for an older pin)
      const money = (amount: number) => ({ amount, currency: ctx.currency })
      const rates = await deps.runner.run(businessId, 'checkout.shipping_rates', {
        hooks,
        orderId,
        data: (previous) => {
          const fee = okAnswers(previous).at(-1)?.answer.fee
          return {
            deliveryMethod: ctx.deliveryMethod, locality: ctx.locality, subtotal: money(ctx.subtotal),
            builtInFee: money(fee === undefined ? ctx.deliveryFee : amountOf(fee))
          }
        }
      })
      const lastRate = okAnswers(rates).at(-1)
      const deliveryFee = lastRate === undefined ? ctx.deliveryFee : amountOf(lastRate.answer.fee)
      const discounts = okAnswers(await deps.runner.run(businessId, 'order.calculate_discounts', {
        hooks,
        orderId,
        data: () => ({
          items: ctx.items.map(({ productId, quantity }) => ({ productId, quantity })), subtotal: money(ctx.subtotal),
          promoDiscount: money(ctx.discount), deliveryFee: money(deliveryFee)
        })
      }))
      return {
        deliveryFee,
        deliveryFeeSetBy: lastRate === undefined ? undefined : { appId: lastRate.hook.appId, appName: lastRate.hook.appName },
        discount: discounts.reduce((sum, { answer }) => sum + amountOf(answer.discount), 0),
        reasons: discounts.filter(({ answer }) => amountOf(answer.discount) > 0 && answer.reason !== undefined).map(({ answer }) => answer.reason as string)
      }
    },
    paymentMethods: async () => (await appPaymentMethods(deps, businessId, hooks, orderId)).map((method) => method.id),
    validate: async (ctx: Readonly<CheckoutContext>) => {
      const results = await deps.runner.run(businessId, 'order.validate', {
        hooks,
        orderId,
        data: () => ({
          items: ctx.items.map(({ productId, quantity }) => ({ productId, quantity })), subtotal: { amount: ctx.subtotal, currency: ctx.currency },
          deliveryMethod: ctx.deliveryMethod
        }),
        stop: (result) => result.ok ? !result.answer.valid : result.hook.failurePolicy === 'closed'
      })
      const last = results.at(-1)
      if (last === undefined) return { valid: true }
      if (last.ok) return last.answer.valid ? { valid: true } : { valid: false, reason: last.answer.reason ?? 'The order was refused' }
      return last.hook.failurePolicy === 'closed' ? { valid: false, reason: CLOSED_VALIDATION_REASON } : { valid: true }
    }
  }
}

/** Prices, fee, discounts and the payment methods on offer, without placing anything. */
export async function quote (deps: CheckoutDeps, businessId: string, input: QuoteInput) {
  const [ctx, hooks] = await Promise.all([deps.commerce.checkoutContext(businessId, { ...input, paymentMethod: 'CASH' }, deps.rules.maxLineQuantity, deps.clock.now()), deps.runner.hooksOf(businessId)])
  const [quoted, methods] = await Promise.all([quoteCheckout(ctx, pipelineFor(deps, businessId, hooks)), appPaymentMethods(deps, businessId, hooks)])
  return {
    subtotal: quoted.subtotal,
    deliveryFee: quoted.deliveryFee,
    deliveryFeeSetBy: quoted.deliveryFeeSetBy === null ? { provider: 'platform' as const } : { provider: 'app' as const, ...quoted.deliveryFeeSetBy },
    promoCode: ctx.promoCode,
    promoDiscount: ctx.discount,
    appDiscount: quoted.discount - ctx.discount,
    discountReasons: quoted.discountReasons,
    total: quoted.amount,
    currency: ctx.currency,
    paymentMethods: [
      ...BUILT_IN_PAYMENT_METHODS.map((id) => ({ id, name: BUILT_IN_METHOD_NAMES[id] ?? id, provider: 'platform' as const })),
      ...methods
    ]
  }
}

/** Asks the method's app for a payment session; the order stays unpaid (502) when it cannot answer. */
async function createPayment (deps: CheckoutDeps, businessId: string, order: Order, holdUntil?: Date): Promise<PaymentAnswer> {
  const method = parseAppMethodId(order.paymentMethod)
  if (method === null) throw httpError(500, 'internal_error', 'not an app payment method')
  const results = await deps.runner.run(businessId, 'checkout.create_payment', {
    orderId: order.id,
    only: (hook) => hook.installationId === method.installationId,
    data: () => ({ orderId: order.id, amount: { amount: order.amount, currency: order.currency }, currency: order.currency, paymentMethodId: method.methodId, businessId, description: `Order ${order.orderNumber}` })
  })
  const answered = okAnswers(results)[0]
  if (answered === undefined) {
    throw httpError(502, 'payment_provider_unreachable', `The payment provider did not answer (${results[0]?.ok === false ? results[0].error : 'not reachable'}); the order is saved and unpaid`, { orderId: order.id, orderNumber: order.orderNumber })
  }
  const answeredExpiry = answered.answer.expiresAt === undefined ? undefined : new Date(answered.answer.expiresAt)
  // a stock hold's deadline only moves earlier: an app cannot keep a product off the shelf longer
  const expiresAt = holdUntil !== undefined && (answeredExpiry === undefined || answeredExpiry > holdUntil) ? undefined : answeredExpiry
  // the session and its expiry job commit together: an unpaid payment always expires
  await deps.executor.transaction(async (tx) => {
    await deps.commerce.in(tx).attachPaymentSession(businessId, order.id, { invoiceId: answered.answer.invoiceId, expiresAt })
    if (expiresAt !== undefined) await deps.schedulePaymentExpiry(tx, { businessId, orderId: order.id, expiresAt })
  })
  return holdUntil !== undefined && expiresAt === undefined ? { ...answered.answer, expiresAt: holdUntil.toISOString() } : answered.answer
}

/** The same checkout for the storefront and POST /app-api/orders. */
export async function placeOrder (deps: CheckoutDeps, businessId: string, input: GuestOrderBody, options: PlaceOptions = {}): Promise<Placed> {
  const hold = options.holdStock === true
    ? { expiresAt: new Date(deps.clock.nowMs() + deps.rules.paymentExpiryMinutes * 60_000), schedule: deps.schedulePaymentExpiry }
    : undefined
  const orderId = newOrderId()
  const order = await deps.commerce.createOrder(businessId, input, pipelineFor(deps, businessId, await deps.runner.hooksOf(businessId), orderId),
    { now: deps.clock.now(), maxLineQuantity: deps.rules.maxLineQuantity, hold, id: orderId })
  if ((BUILT_IN_PAYMENT_METHODS as readonly string[]).includes(order.paymentMethod)) {
    return { order, paymentExpiresAt: hold?.expiresAt.toISOString() ?? null }
  }
  const payment = await createPayment(deps, businessId, order, hold?.expiresAt)
  return { order, paymentExpiresAt: payment.expiresAt ?? null, payment }
}

/** The checkout's functions bound to what they run against: `quote` and `placeOrder` for the storefront and POST /app-api/orders. */
export function createCheckout (deps: CheckoutDeps) {
  return bindTo(deps, { pipelineFor, quote, placeOrder, appPaymentMethods })
}

export type Checkout = ReturnType<typeof createCheckout>
