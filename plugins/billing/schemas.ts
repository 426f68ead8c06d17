import { Type } from '@sinclair/typebox'
import { Paginated } from '../../server/schemas.ts'
import { PurchaseSchema, SubscriptionSchema, UsageRecordSchema } from '../../sdk/src/contract/billing.ts'

export {
  ChargeDecisionSchema, CreateChargeBodySchema, EarningsSchema, InvoiceListSchema, MerchantBillingSchema, MerchantChargeSchema, PurchaseSchema,
  SubscriptionSchema, UsageRecordBodySchema, UsageRecordSchema
} from '../../sdk/src/contract/billing.ts'

/** A charge id in a path: `sub_…`, `pur_…`. */
export const ChargeParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const SubscriptionPage = Paginated(SubscriptionSchema)
export const PurchasePage = Paginated(PurchaseSchema)
export const UsageRecordAnswers = { 200: UsageRecordSchema, 201: UsageRecordSchema }
export const EarningsQuery = Type.Object({
  months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 12, description: 'How many months, newest first (default 12)' }))
}, { additionalProperties: false })
