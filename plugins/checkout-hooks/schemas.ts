import { Type, type Static, type TSchema } from '@sinclair/typebox'
import type { HookPoint } from '../apps/manifest/schemas.ts'

/** An address a customer's browser may be sent to or load: http(s) only, never javascript:, data: or the like. */
export function httpUrl (raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  try {
    const url = new URL(raw)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

/**
 * What each hook point must answer, in the newest API version's shape (an older version's answer is
 * upgraded to it first: plugins/checkout-hooks/hook-call.ts); extra fields are allowed and ignored.
 */
export const PaymentMethodsAnswerSchema = Type.Object({
  methods: Type.Array(Type.Object({
    id: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    /** Not http(s): dropped, the method stays (see httpUrl). */
    icon: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 }))
  }), { maxItems: 20 })
})
export const CreatePaymentAnswerSchema = Type.Object({
  /** The customer is sent there: an answer with a javascript:, data: or other non-http(s) address is refused. */
  paymentUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2048 })),
  qrCode: Type.Optional(Type.String({ maxLength: 8192 })),
  invoiceId: Type.Optional(Type.String({ maxLength: 200 })),
  expiresAt: Type.Optional(Type.String({ format: 'date-time' }))
})
/** An amount a hook answers: { amount, currency } (the newest version's shape), or a plain integer of minor units, still taken. */
const AnswerMoney = Type.Union([
  Type.Object({ amount: Type.Integer({ minimum: 0, maximum: 100_000_000 }), currency: Type.String() }),
  Type.Integer({ minimum: 0, maximum: 100_000_000 })
])
/** The minor units of an amount a hook answered. */
export const amountOf = (money: Static<typeof AnswerMoney>): number => typeof money === 'number' ? money : money.amount
export const ShippingRatesAnswerSchema = Type.Object({ fee: AnswerMoney })
export const ValidateAnswerSchema = Type.Object({ valid: Type.Boolean(), reason: Type.Optional(Type.String({ maxLength: 500 })) })
export const DiscountsAnswerSchema = Type.Object({
  discount: AnswerMoney,
  reason: Type.Optional(Type.String({ maxLength: 500 }))
})

export const HOOK_ANSWERS = {
  'checkout.payment_methods': PaymentMethodsAnswerSchema,
  'checkout.create_payment': CreatePaymentAnswerSchema,
  'checkout.shipping_rates': ShippingRatesAnswerSchema,
  'order.validate': ValidateAnswerSchema,
  'order.calculate_discounts': DiscountsAnswerSchema
} satisfies Record<HookPoint, TSchema>

export type HookAnswer<P extends HookPoint> = Static<(typeof HOOK_ANSWERS)[P]>

export const PaymentMethodSchema = Type.Object({
  id: Type.String({ description: 'CASH, CARD, or <installationId>:<app method id> for app methods' }),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  provider: Type.Union([Type.Literal('platform'), Type.Literal('app')]),
  appId: Type.Optional(Type.String())
}, { title: 'PaymentMethod' })
export type PaymentMethod = Static<typeof PaymentMethodSchema>

// the console's hook call log answers with the contract's resources (sdk/src/contract/console.ts), which the admin UI reads too
export { HookCallDetailSchema, HookCallQuerySchema as HookCallQuery, HookCallSchema } from '../../sdk/src/contract/console.ts'
export const AppHookCallParams = Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ minLength: 1, maxLength: 64 }) })
