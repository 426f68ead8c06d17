import { Type, type Static } from '@sinclair/typebox'
import { Iso, Paginated } from './resources.ts'
import { StringEnum } from './schemas.ts'

/**
 * App billing (DESIGN §23): pricing plans on the app, the charges an app asks for through the App API,
 * the merchant's approval, and the invoices the platform writes. Money is integer minor units of the
 * platform's BILLING_CURRENCY, `{amount, currency}` in JSON.
 */

export const PLAN_KINDS = ['RECURRING', 'ONE_TIME'] as const
export type PlanKind = typeof PLAN_KINDS[number]
export const PLAN_INTERVALS = ['EVERY_30_DAYS', 'ANNUAL'] as const
export type PlanInterval = typeof PLAN_INTERVALS[number]
export const CHARGE_STATUSES = ['PENDING', 'ACTIVE', 'DECLINED', 'EXPIRED', 'CANCELLED'] as const
export type ChargeStatus = typeof CHARGE_STATUSES[number]
export const INVOICE_LINE_KINDS = ['RECURRING', 'ONE_TIME', 'USAGE'] as const
export type InvoiceLineKind = typeof INVOICE_LINE_KINDS[number]

/** At most this many plans on an app; trials of at most MAX_TRIAL_DAYS. */
export const MAX_PLANS = 10
export const MAX_TRIAL_DAYS = 90
/** The largest amount one plan, cap, usage record or line may carry: 10 million in major units. */
export const MAX_MONEY_AMOUNT = 1_000_000_000

const PlanIntervalSchema = StringEnum(PLAN_INTERVALS, { title: 'PlanInterval' })

/** What a merchant sees for each status (the admin's badges). */
export const CHARGE_STATUS_WORDS: Record<ChargeStatus, string> = {
  PENDING: 'Waiting for approval',
  ACTIVE: 'Active',
  DECLINED: 'Declined',
  EXPIRED: 'Expired',
  CANCELLED: 'Cancelled'
}

/** Integer minor units of `currency` (ISO 4217, the platform's BILLING_CURRENCY). */
export const BillingMoneySchema = Type.Object({
  amount: Type.Integer({ minimum: 0, maximum: MAX_MONEY_AMOUNT, description: 'Integer minor units (cents)' }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217, the platform\'s BILLING_CURRENCY', examples: ['USD'] })
}, { additionalProperties: false, title: 'Money' })
export type BillingMoney = Static<typeof BillingMoneySchema>

export const PlanUsageSchema = Type.Object({
  cappedAmount: BillingMoneySchema,
  terms: Type.String({ minLength: 1, maxLength: 500, description: 'What the usage charges are for, shown to the merchant' })
}, { additionalProperties: false })

export const PricingPlanSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 40, description: 'A slug, unique in the app' }),
  name: Type.String({ minLength: 1, maxLength: 60 }),
  kind: StringEnum(PLAN_KINDS, { title: 'PlanKind' }),
  price: BillingMoneySchema,
  /** RECURRING plans only. */
  interval: Type.Optional(PlanIntervalSchema),
  trialDays: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS, description: 'RECURRING plans only; default 0' })),
  usage: Type.Optional(PlanUsageSchema)
}, { additionalProperties: false, title: 'PricingPlan' })
export type PricingPlan = Static<typeof PricingPlanSchema>

export const PricingSchema = Type.Object({
  plans: Type.Array(PricingPlanSchema, { maxItems: MAX_PLANS })
}, { additionalProperties: false, title: 'Pricing', description: 'No plans: the app is free' })
export type Pricing = Static<typeof PricingSchema>

const ReturnUrl = Type.String({ format: 'uri', maxLength: 2048, description: 'On the app\'s App URL or redirect URL origin; the merchant comes back here with charge_id and status' })

export const CreateChargeBodySchema = Type.Object({
  planId: Type.String({ minLength: 1, maxLength: 40 }),
  returnUrl: ReturnUrl,
  test: Type.Optional(Type.Boolean({ description: 'A test charge: approved like any other, never invoiced. Always true on a test install.' }))
}, { additionalProperties: false })
export type CreateChargeBody = Static<typeof CreateChargeBodySchema>

export const SubscriptionUsageSchema = Type.Object({
  cappedAmount: BillingMoneySchema,
  terms: Type.String(),
  balanceUsed: BillingMoneySchema,
  balanceRemaining: BillingMoneySchema
})

export const SubscriptionSchema = Type.Object({
  id: Type.String({ examples: ['sub_8fj2k1'] }),
  status: StringEnum(CHARGE_STATUSES, { title: 'ChargeStatus' }),
  planId: Type.String(),
  name: Type.String(),
  price: BillingMoneySchema,
  interval: PlanIntervalSchema,
  trialDays: Type.Integer(),
  trialEndsAt: Type.Union([Iso, Type.Null()], { description: 'Null while PENDING and without a trial' }),
  usage: Type.Union([SubscriptionUsageSchema, Type.Null()]),
  test: Type.Boolean(),
  confirmationUrl: Type.String({ description: 'Where the merchant approves or declines: send them there' }),
  currentPeriodEnd: Type.Union([Iso, Type.Null()], { description: 'The end of the business\'s current billing cycle; null while PENDING' }),
  replacedBy: Type.Union([Type.String(), Type.Null()], { description: 'The subscription that replaced this one' }),
  createdAt: Iso
}, { title: 'Subscription' })
export type Subscription = Static<typeof SubscriptionSchema>

export const PurchaseSchema = Type.Object({
  id: Type.String({ examples: ['pur_2kd81m'] }),
  status: StringEnum(CHARGE_STATUSES, { title: 'ChargeStatus' }),
  planId: Type.String(),
  name: Type.String(),
  price: BillingMoneySchema,
  test: Type.Boolean(),
  confirmationUrl: Type.String(),
  createdAt: Iso
}, { title: 'Purchase' })
export type Purchase = Static<typeof PurchaseSchema>

export const UsageRecordBodySchema = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 255 }),
  price: BillingMoneySchema,
  idempotencyKey: Type.String({ minLength: 1, maxLength: 255, description: 'The same key again answers the first record (200) and records nothing' })
}, { additionalProperties: false })
export type UsageRecordBody = Static<typeof UsageRecordBodySchema>

export const UsageRecordSchema = Type.Object({
  id: Type.String({ examples: ['use_k2m1x9'] }),
  description: Type.String(),
  price: BillingMoneySchema,
  createdAt: Iso,
  balanceUsed: BillingMoneySchema,
  balanceRemaining: BillingMoneySchema
}, { title: 'UsageRecord' })
export type UsageRecord = Static<typeof UsageRecordSchema>

export const InvoiceLineSchema = Type.Object({
  appId: Type.String(),
  appName: Type.String(),
  chargeId: Type.String(),
  kind: StringEnum(INVOICE_LINE_KINDS, { title: 'InvoiceLineKind' }),
  description: Type.String(),
  amount: BillingMoneySchema
})

export const InvoiceSchema = Type.Object({
  id: Type.String({ examples: ['inv_7h2k9d'] }),
  businessId: Type.String(),
  periodStart: Iso,
  periodEnd: Iso,
  lines: Type.Array(InvoiceLineSchema),
  total: BillingMoneySchema,
  currency: Type.String(),
  status: Type.Literal('ISSUED'),
  createdAt: Iso
}, { title: 'Invoice' })
export type Invoice = Static<typeof InvoiceSchema>
export const InvoiceListSchema = Paginated(InvoiceSchema)

/** A charge as the merchant's admin shows it: either kind, with the app it comes from. */
export const MerchantChargeSchema = Type.Object({
  id: Type.String(),
  kind: StringEnum(['SUBSCRIPTION', 'PURCHASE'] as const),
  status: StringEnum(CHARGE_STATUSES, { title: 'ChargeStatus' }),
  app: Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Type.Union([Type.String(), Type.Null()]) }),
  installationId: Type.String(),
  planId: Type.String(),
  name: Type.String(),
  price: BillingMoneySchema,
  interval: Type.Union([PlanIntervalSchema, Type.Null()]),
  trialDays: Type.Integer(),
  trialEndsAt: Type.Union([Iso, Type.Null()]),
  usage: Type.Union([SubscriptionUsageSchema, Type.Null()]),
  test: Type.Boolean(),
  returnUrl: Type.String(),
  expiresAt: Type.Union([Iso, Type.Null()], { description: 'A PENDING charge expires then' }),
  currentPeriodEnd: Type.Union([Iso, Type.Null()]),
  replacedBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Iso
}, { title: 'MerchantCharge' })
export type MerchantCharge = Static<typeof MerchantChargeSchema>

/** Approve or decline: the charge (DESIGN §23: "answer 200 with the charge"), and where the merchant's browser goes next. */
export const ChargeDecisionSchema = Type.Intersect([MerchantChargeSchema, Type.Object({
  redirectUrl: Type.String({ description: 'returnUrl?charge_id=…&status=…: send the merchant\'s browser there' })
})], { title: 'ChargeDecision' })

export const MerchantBillingSchema = Type.Object({
  subscriptions: Type.Array(MerchantChargeSchema, { description: 'ACTIVE subscriptions' }),
  pending: Type.Array(MerchantChargeSchema, { description: 'Charges waiting for the merchant' }),
  usage: Type.Array(Type.Object({ subscriptionId: Type.String(), used: BillingMoneySchema, cap: BillingMoneySchema })),
  nextInvoiceAt: Type.Union([Iso, Type.Null()], { description: 'Null until the first approved charge that is not a test' })
}, { title: 'MerchantBilling' })

export const EarningsMonthSchema = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  gross: BillingMoneySchema,
  fee: BillingMoneySchema,
  net: BillingMoneySchema,
  testGross: BillingMoneySchema
})

export const EarningsSchema = Type.Object({
  months: Type.Array(EarningsMonthSchema, { description: 'Newest first, zero-filled' }),
  payingInstallations: Type.Integer(),
  monthlyRecurringRevenue: BillingMoneySchema,
  platformFeePercent: Type.Number()
}, { title: 'Earnings' })

/** The earnings CSV's header (GET /developer/apps/:appId/earnings.csv), one row per invoice line. */
export const EARNINGS_CSV_COLUMNS = ['invoice_id', 'business_id', 'period_start', 'period_end', 'charge_id', 'kind', 'description', 'amount', 'currency', 'fee', 'net'] as const
