import type { HookRequestDataMap, HookResponseMap } from '@app-platform/sdk'

/*
 * What the app answers at each of the five checkout hook points. Pure functions of the hook's data
 * (money in minor units), so they read like the rules a merchant would be told.
 */

/** Delivery is free from this subtotal on; below it the app charges FLAT_DELIVERY_FEE. */
export const FREE_DELIVERY_FROM = 3000
export const FLAT_DELIVERY_FEE = 299
/** Loyalty: LOYALTY_PERCENT off the subtotal from LOYALTY_FROM on. */
export const LOYALTY_FROM = 2000
export const LOYALTY_PERCENT = 10
/** order.validate refuses more than this many of one product in an order. */
export const MAX_QUANTITY_PER_ITEM = 10
export const WALLET_METHOD_ID = 'demo-wallet'
/** How long a payment page stays open. */
export const PAYMENT_TTL_MS = 15 * 60_000

export const money = (minor: number): string => (minor / 100).toFixed(2)

/**
 * An amount as the platform sent it: integer minor units on API version 2026-11, `{amount, currency}`
 * from 2026-12 on (and a create_payment amount as a string of digits on 2026-11). The app is pinned to
 * the version it was installed on, so it reads both; its answers may name an amount either way.
 */
export function minorUnits (value: unknown): number {
  const amount = typeof value === 'object' && value !== null && 'amount' in value ? (value as { amount: unknown }).amount : value
  const minor = Number(amount)
  if (!Number.isInteger(minor)) throw new TypeError(`not an amount of money: ${JSON.stringify(value)}`)
  return minor
}

export function shippingRate (data: HookRequestDataMap['checkout.shipping_rates']): HookResponseMap['checkout.shipping_rates'] {
  // Pickup costs what the platform (or an app before us) said; we only price deliveries.
  if (data.deliveryMethod !== 'DELIVERY') return { fee: minorUnits(data.builtInFee) }
  return { fee: minorUnits(data.subtotal) >= FREE_DELIVERY_FROM ? 0 : FLAT_DELIVERY_FEE }
}

export function loyaltyDiscount (data: HookRequestDataMap['order.calculate_discounts']): HookResponseMap['order.calculate_discounts'] {
  const subtotal = minorUnits(data.subtotal)
  if (subtotal < LOYALTY_FROM) return { discount: 0 }
  return {
    discount: Math.floor(subtotal * LOYALTY_PERCENT / 100),
    reason: `Loyalty reward: ${LOYALTY_PERCENT}% off orders of ${money(LOYALTY_FROM)} or more`
  }
}

export function validateOrder (data: HookRequestDataMap['order.validate']): HookResponseMap['order.validate'] {
  const tooMany = data.items.find((item) => item.quantity > MAX_QUANTITY_PER_ITEM)
  if (tooMany !== undefined) return { valid: false, reason: `At most ${MAX_QUANTITY_PER_ITEM} of one item per order, please.` }
  return { valid: true }
}

export function paymentMethods (): HookResponseMap['checkout.payment_methods'] {
  return {
    methods: [{ id: WALLET_METHOD_ID, name: 'Demo Wallet', description: 'Pay on the reference app’s test payment page (no real money).' }]
  }
}
