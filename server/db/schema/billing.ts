import { pgTable, text, timestamp, boolean, integer, bigint, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { CHARGE_STATUSES, INVOICE_LINE_KINDS, PLAN_INTERVALS } from '../../../sdk/src/contract/billing.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const createdAt = () => at('created_at').notNull().defaultNow()

/**
 * App billing (DESIGN §23), owned by plugins/billing. Amounts are integer minor units of `currency`
 * (the platform's BILLING_CURRENCY when the row was written).
 */

/** A charge an app asked for: a subscription (`sub_…`) or a one-time purchase (`pur_…`), with the plan as it was. */
export const appCharges = pgTable('app_charges', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['SUBSCRIPTION', 'PURCHASE'] }).notNull(),
  installationId: text('installation_id').notNull(),
  appId: text('app_id').notNull(),
  businessId: text('business_id').notNull(),
  planId: text('plan_id').notNull(),
  name: text('name').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  /** RECURRING plans only. */
  interval: text('interval', { enum: PLAN_INTERVALS }),
  trialDays: integer('trial_days').notNull().default(0),
  /** The plan's capped usage amount per 30-day period, and its terms; null without usage. */
  usageCap: bigint('usage_cap', { mode: 'number' }),
  usageTerms: text('usage_terms'),
  test: boolean('test').notNull(),
  status: text('status', { enum: CHARGE_STATUSES }).notNull().default('PENDING'),
  returnUrl: text('return_url').notNull(),
  /** A PENDING charge expires then (two billing days after it was asked for). */
  expiresAt: at('expires_at').notNull(),
  decidedAt: at('decided_at'),
  /** When the subscription became ACTIVE; its trial ends at trialEndsAt (null: none left). */
  activatedAt: at('activated_at'),
  trialEndsAt: at('trial_ends_at'),
  /** When it stopped being ACTIVE (cancelled, replaced, uninstalled). */
  endedAt: at('ended_at'),
  replacedBy: text('replaced_by'),
  createdAt: createdAt(),
  updatedAt: at('updated_at').notNull().defaultNow()
}, (t) => [
  index('app_charges_installation_idx').on(t.installationId, t.kind, t.createdAt),
  index('app_charges_business_status_idx').on(t.businessId, t.status),
  index('app_charges_app_idx').on(t.appId, t.status),
  index('app_charges_pending_idx').on(t.expiresAt).where(sql`status = 'PENDING'`),
  // at most one ACTIVE subscription per installation
  uniqueIndex('app_charges_one_active_idx').on(t.installationId).where(sql`status = 'ACTIVE' and kind = 'SUBSCRIPTION'`)
])

/** Usage an app recorded against a subscription's capped amount; one record per idempotency key. */
export const appUsageRecords = pgTable('app_usage_records', {
  id: text('id').primaryKey(),
  chargeId: text('charge_id').notNull().references(() => appCharges.id, { onDelete: 'cascade' }),
  businessId: text('business_id').notNull(),
  appId: text('app_id').notNull(),
  description: text('description').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  test: boolean('test').notNull(),
  createdAt: at('created_at').notNull()
}, (t) => [
  uniqueIndex('app_usage_records_key_idx').on(t.chargeId, t.idempotencyKey),
  index('app_usage_records_charge_created_idx').on(t.chargeId, t.createdAt),
  index('app_usage_records_business_created_idx').on(t.businessId, t.createdAt)
])

/** The trial a business has used with an app, kept across reinstalls (milliseconds of trial). */
export const appTrialUsage = pgTable('app_trial_usage', {
  appId: text('app_id').notNull(),
  businessId: text('business_id').notNull(),
  usedMs: bigint('used_ms', { mode: 'number' }).notNull().default(0),
  updatedAt: at('updated_at').notNull().defaultNow()
}, (t) => [primaryKey({ columns: [t.appId, t.businessId] })])

/** A business's billing cycle: 30 billing days from its first approved charge that is not a test. */
export const billingAccounts = pgTable('billing_accounts', {
  businessId: text('business_id').primaryKey(),
  cycleStart: at('cycle_start').notNull(),
  /** The end of the current cycle: the invoice job writes the invoice once the clock passes it. */
  nextInvoiceAt: at('next_invoice_at').notNull(),
  createdAt: createdAt()
}, (t) => [index('billing_accounts_next_idx').on(t.nextInvoiceAt)])

export const invoices = pgTable('invoices', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull(),
  periodStart: at('period_start').notNull(),
  periodEnd: at('period_end').notNull(),
  total: bigint('total', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: ['ISSUED'] }).notNull().default('ISSUED'),
  createdAt: at('created_at').notNull()
}, (t) => [
  uniqueIndex('invoices_business_period_idx').on(t.businessId, t.periodStart),
  index('invoices_business_created_idx').on(t.businessId, t.periodEnd)
])

export const invoiceLines = pgTable('invoice_lines', {
  id: text('id').primaryKey(),
  invoiceId: text('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  businessId: text('business_id').notNull(),
  appId: text('app_id').notNull(),
  appName: text('app_name').notNull(),
  chargeId: text('charge_id').notNull(),
  kind: text('kind', { enum: INVOICE_LINE_KINDS }).notNull(),
  description: text('description').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  /** The invoice's period end, copied: the developer's earnings group lines by it. */
  periodEnd: at('period_end').notNull()
}, (t) => [
  index('invoice_lines_invoice_idx').on(t.invoiceId, t.position),
  index('invoice_lines_app_period_idx').on(t.appId, t.periodEnd)
])
