import { and, eq, inArray, sql } from 'drizzle-orm'
import { businesses, orders, products, type OrderItem } from '../../server/db/schema/index.ts'
import type { Executor, Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { emitEvent } from '../../server/events.ts'
import { recordActivity } from '../../server/activity.ts'
import { badRequest, conflict, fieldError, notFound, unprocessable } from './errors.ts'
import { emitStockEvents } from './inventory.ts'
import { applyPromoCode } from './promo-codes-service.ts'
import { catalogChanged } from './catalog-cache.ts'
import { BUILT_IN_PAYMENT_METHODS, type GuestOrderBody, type Order } from './schemas.ts'
import { orderEventData, serializeOrder } from './serializers.ts'
import { databaseNow } from '../../server/clock.ts'

/** Built-in delivery fee in minor units; PICKUP is free. Apps may override it (checkout.shipping_rates). */
export const DELIVERY_FEE = 300
export const PICKUP_FEE = 0

/** What every checkout step sees: the server-priced cart and the quote so far. */
export interface CheckoutContext {
  businessId: string
  currency: string
  items: OrderItem[]
  subtotal: number
  deliveryMethod: GuestOrderBody['deliveryMethod']
  locality: string
  paymentMethod: string
  /** The fee before this step (the built-in one at the first step). */
  deliveryFee: number
  /** The promo code's discount (already capped at the subtotal); the apps' discounts add to it. */
  discount: number
  /** The promo code applied, upper case; null without one. */
  promoCode: string | null
}

/** The app whose shipping-rate answer set the delivery fee. */
export interface FeeSource { appId: string, appName: string }
export interface QuoteAdjustment { deliveryFee?: number, deliveryFeeSetBy?: FeeSource, discount?: number, reason?: string, reasons?: string[] }
export interface Validation { valid: boolean, reason?: string }

/**
 * The seam for checkout hooks. Each step is optional; the built-in pipeline has none of them.
 * quote may replace the delivery fee and add a discount; validate may refuse (422 with the reason);
 * paymentMethods lists app-provided method ids accepted besides CASH and CARD.
 * Steps run before the order's transaction, so slow hooks never hold row locks.
 */
export interface CheckoutPipeline {
  quote?: (ctx: Readonly<CheckoutContext>) => Promise<QuoteAdjustment | undefined>
  validate?: (ctx: Readonly<CheckoutContext>) => Promise<Validation>
  paymentMethods?: (ctx: Readonly<CheckoutContext>) => Promise<string[]>
}

export const BUILT_IN_PIPELINE: CheckoutPipeline = {}

export interface Quote {
  subtotal: number
  deliveryFee: number
  /** null: the platform's built-in fee */
  deliveryFeeSetBy: FeeSource | null
  discount: number
  amount: number
  discountReasons: string[]
}

const isMinorUnits = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

/** What the platform allows one order line to take (MAX_LINE_QUANTITY); the schema's own ceiling is 1000. */
export const DEFAULT_MAX_LINE_QUANTITY = 20

/**
 * Same product twice → one line with the quantities added. A line above maxLineQuantity is a 400
 * naming the product, so one guest cannot take a product's whole stock in one order.
 */
export function mergeItems (items: GuestOrderBody['items'], maxLineQuantity = DEFAULT_MAX_LINE_QUANTITY): Array<{ productId: string, quantity: number }> {
  const merged = new Map<string, number>()
  for (const item of items) {
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1) throw badRequest('order_quantity_invalid', 'Every item quantity must be an integer ≥ 1')
    merged.set(item.productId, (merged.get(item.productId) ?? 0) + item.quantity)
  }
  for (const [productId, quantity] of merged) {
    if (quantity > maxLineQuantity) {
      throw badRequest('order_quantity_too_large', `At most ${maxLineQuantity} of one product per order (${quantity} asked for product ${productId})`, { productId, maxLineQuantity })
    }
  }
  return [...merged].map(([productId, quantity]) => ({ productId, quantity })).sort((a, b) => a.productId.localeCompare(b.productId))
}

/**
 * The storefront's stock hold: the order's payment (any method) expires at `expiresAt`, and
 * `schedule` enqueues that expiry in the order's own transaction, so a held order always expires.
 */
export interface StockHold { expiresAt: Date, schedule: (tx: Tx, input: { businessId: string, orderId: string, expiresAt: Date }) => Promise<void> }

export interface OrderOptions {
  maxLineQuantity?: number, hold?: StockHold, /** chosen before the hooks run, so their calls are logged under it */ id?: string
  /** The time a promo code's expiry is judged at: the caller's clock (server/clock.ts); else the database's. */
  now?: Date
}

/** Prices the cart from the catalogue (never from the client): unknown or unavailable products → 422. */
async function priceItems (executor: Executor, businessId: string, lines: Array<{ productId: string, quantity: number }>): Promise<OrderItem[]> {
  const rows = await executor.select().from(products)
    .where(and(eq(products.businessId, businessId), inArray(products.id, lines.map((line) => line.productId))))
  const byId = new Map(rows.map((row) => [row.id, row]))
  return lines.map((line) => {
    const product = byId.get(line.productId)
    if (product === undefined || !product.isAvailable || product.status !== 'ACTIVE') {
      throw unprocessable('product_unavailable', `Product ${line.productId} is not available`, { productId: line.productId })
    }
    return { productId: product.id, name: product.name, quantity: line.quantity, unitPrice: product.price, total: product.price * line.quantity }
  })
}

/** Runs the pipeline's quote step over the built-in quote; discounts are capped at the subtotal. */
export async function quoteCheckout (ctx: CheckoutContext, pipeline: CheckoutPipeline): Promise<Quote> {
  let { deliveryFee, discount } = ctx
  let deliveryFeeSetBy: FeeSource | null = null
  const discountReasons: string[] = []
  const adjustment = await pipeline.quote?.({ ...ctx })
  if (adjustment !== undefined) {
    if (isMinorUnits(adjustment.deliveryFee)) {
      deliveryFee = adjustment.deliveryFee
      deliveryFeeSetBy = adjustment.deliveryFeeSetBy ?? null
    }
    if (isMinorUnits(adjustment.discount) && adjustment.discount > 0) {
      discount += adjustment.discount
      for (const reason of [adjustment.reason, ...(adjustment.reasons ?? [])]) if (reason !== undefined && reason !== '') discountReasons.push(reason)
    }
  }
  discount = Math.min(discount, ctx.subtotal)
  return { subtotal: ctx.subtotal, deliveryFee, deliveryFeeSetBy, discount, amount: ctx.subtotal - discount + deliveryFee, discountReasons }
}

/** Decrements stock only where enough is left (a conditional update, safe under concurrency). */
async function takeStock (executor: Executor, businessId: string, item: OrderItem): Promise<void> {
  const [row] = await executor.update(products)
    .set({ stock: sql`${products.stock} - ${item.quantity}`, updatedAt: databaseNow() })
    .where(and(eq(products.businessId, businessId), eq(products.id, item.productId), sql`${products.stock} >= ${item.quantity}`,
      eq(products.price, item.unitPrice), eq(products.isAvailable, true), eq(products.status, 'ACTIVE')))
    .returning({ id: products.id, name: products.name, stock: products.stock, threshold: products.lowStockThreshold })
  if (row !== undefined) {
    await emitStockEvents(executor, businessId, row.stock + item.quantity, { productId: row.id, name: row.name, stock: row.stock, threshold: row.threshold })
    return
  }
  const [current] = await executor.select().from(products).where(and(eq(products.businessId, businessId), eq(products.id, item.productId))).limit(1)
  if (current === undefined || !current.isAvailable || current.status !== 'ACTIVE') throw unprocessable('product_unavailable', `Product ${item.productId} is not available`, { productId: item.productId })
  if (current.price !== item.unitPrice) throw conflict('product_price_changed', `The price of ${current.name} changed during checkout; quote again`)
  throw conflict('product_out_of_stock', `Not enough stock for ${current.name}: ${current.stock} left`, { productId: current.id, available: current.stock })
}

/**
 * Creates a guest order: prices on the server, runs the pipeline (quote, payment method, validate),
 * then in one transaction takes the stock, assigns the next order number and writes order.created
 * (and any inventory events). Unknown/unavailable product or a refused validation → 422;
 * not enough stock → 409 with `available`.
 */
/**
 * The server-priced cart every checkout step starts from; refuses unknown or unavailable products.
 * No address needed: a shopper asks for a delivery price before typing one (the order requires it).
 */
export async function checkoutContext (executor: Executor, businessId: string, input: Omit<GuestOrderBody, 'customer'>,
  maxLineQuantity = DEFAULT_MAX_LINE_QUANTITY, now?: Date): Promise<CheckoutContext> {
  const lines = mergeItems(input.items, maxLineQuantity)
  const [business] = await executor.select({ currency: businesses.currency }).from(businesses).where(eq(businesses.id, businessId)).limit(1)
  if (business === undefined) throw notFound('business_not_found', 'Business')
  const items = await priceItems(executor, businessId, lines)
  const subtotal = items.reduce((sum, item) => sum + item.total, 0)
  // a blank code is no code: the shop sends the field as the shopper left it
  const promo = input.promoCode === undefined || input.promoCode.trim() === ''
    ? { code: null, discount: 0 }
    : await applyPromoCode(executor, businessId, input.promoCode, { subtotal, currency: business.currency }, now)
  return {
    businessId,
    currency: business.currency,
    items,
    subtotal,
    deliveryMethod: input.deliveryMethod,
    locality: input.locality ?? '',
    paymentMethod: input.paymentMethod,
    deliveryFee: input.deliveryMethod === 'DELIVERY' ? DELIVERY_FEE : PICKUP_FEE,
    discount: promo.discount,
    promoCode: promo.code
  }
}

/** An order's id, chosen before its checkout runs when the hook calls must name the order (newOrderId). */
export const newOrderId = (): string => newId('ord')

export async function createOrder (executor: Executor, businessId: string, input: GuestOrderBody,
  pipeline: CheckoutPipeline = BUILT_IN_PIPELINE, options: OrderOptions = {}): Promise<Order> {
  const address = input.address?.trim() ?? ''
  if (input.deliveryMethod === 'DELIVERY' && address === '') throw fieldError('field_required', '/address', 'is required for DELIVERY')
  if (input.customer.name.trim() === '') throw fieldError('field_required', '/customer/name', 'must not be blank')
  const ctx = await checkoutContext(executor, businessId, input, options.maxLineQuantity, options.now)
  const { items, currency } = ctx
  const quote = await quoteCheckout(ctx, pipeline)
  const priced = { ...ctx, deliveryFee: quote.deliveryFee, discount: quote.discount }

  const builtIn = (BUILT_IN_PAYMENT_METHODS as readonly string[]).includes(input.paymentMethod)
  if (!builtIn && !(await pipeline.paymentMethods?.(priced) ?? []).includes(input.paymentMethod)) {
    throw unprocessable('payment_method_unknown', `Unknown payment method ${JSON.stringify(input.paymentMethod)}`)
  }
  const verdict = await pipeline.validate?.(priced) ?? { valid: true }
  if (!verdict.valid) throw unprocessable('order_refused', verdict.reason ?? 'The order was refused', { reason: verdict.reason ?? null })

  return await executor.transaction(async (tx) => {
    for (const item of items) await takeStock(tx, businessId, item)
    await catalogChanged(tx, businessId)
    const [counter] = await tx.update(businesses).set({ lastOrderNumber: sql`${businesses.lastOrderNumber} + 1` })
      .where(eq(businesses.id, businessId)).returning({ number: businesses.lastOrderNumber })
    const [row] = await tx.insert(orders).values({
      id: options.id ?? newOrderId(),
      businessId,
      orderNumber: String(counter.number),
      status: 'PENDING',
      items,
      subtotal: quote.subtotal,
      deliveryFee: quote.deliveryFee,
      discount: quote.discount,
      amount: quote.amount,
      currency,
      deliveryMethod: input.deliveryMethod,
      paymentMethod: input.paymentMethod,
      paymentMethodId: builtIn ? null : input.paymentMethod,
      paymentStatus: 'PENDING',
      isGuest: true,
      customer: { name: input.customer.name.trim(), phone: input.customer.phone ?? '', email: input.customer.email ?? '' },
      address,
      locality: input.locality ?? '',
      promoCode: ctx.promoCode,
      promoDiscount: ctx.discount,
      paymentExpiresAt: options.hold?.expiresAt ?? null
    }).returning()
    if (options.hold !== undefined) await options.hold.schedule(tx, { businessId, orderId: row.id, expiresAt: options.hold.expiresAt })
    await emitEvent(tx, { businessId, event: 'order.created', data: orderEventData(row) })
    await recordActivity(tx, {
      businessId, action: 'order.created', resource: { type: 'order', id: row.id },
      changes: { orderNumber: row.orderNumber, status: row.status, amount: row.amount, currency: row.currency, paymentMethod: row.paymentMethod },
      customer: { id: row.customer.email === '' ? null : row.customer.email, name: row.customer.name }
    })
    return serializeOrder(row)
  })
}
