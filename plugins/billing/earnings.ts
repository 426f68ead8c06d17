import { and, asc, desc, eq, gte, isNotNull } from 'drizzle-orm'
import { appCharges, appUsageRecords, invoiceLines, invoices } from '../../server/db/schema/index.ts'
import { EARNINGS_CSV_COLUMNS } from '../../sdk/src/contract/billing.ts'
import { money, type BillingContext } from './context.ts'
import { feeOf, monthlyOfAnnual, sum } from './money.ts'

const monthOf = (date: Date): string => date.toISOString().slice(0, 7)

/** The first instant of the UTC month `back` months before `now`'s. */
function monthStart (now: Date, back: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))
}

/**
 * An app's earnings (DESIGN §23): per month of invoice (the month its period ended, UTC), the gross of
 * its invoice lines, the platform's fee (PLATFORM_FEE_PERCENT of each line, half up, summed: the same
 * figures as the CSV) and the net; beside them what its test charges would have asked, never invoiced
 * (a purchase or subscription at approval, each usage record); paying installations and monthly
 * recurring revenue from its ACTIVE subscriptions that are not tests (an ANNUAL one counts a twelfth).
 */
export async function earningsOf (context: BillingContext, appId: string, months: number) {
  const now = context.clock.now()
  const since = monthStart(now, months - 1)
  const [lines, testCharges, testUsage, active] = await Promise.all([
    context.db.select({ amount: invoiceLines.amount, periodEnd: invoiceLines.periodEnd }).from(invoiceLines)
      .where(and(eq(invoiceLines.appId, appId), gte(invoiceLines.periodEnd, since))),
    context.db.select({ amount: appCharges.amount, at: appCharges.activatedAt }).from(appCharges)
      .where(and(eq(appCharges.appId, appId), eq(appCharges.test, true), isNotNull(appCharges.activatedAt), gte(appCharges.activatedAt, since))),
    context.db.select({ amount: appUsageRecords.amount, at: appUsageRecords.createdAt }).from(appUsageRecords)
      .where(and(eq(appUsageRecords.appId, appId), eq(appUsageRecords.test, true), gte(appUsageRecords.createdAt, since))),
    context.db.select({ installationId: appCharges.installationId, amount: appCharges.amount, interval: appCharges.interval }).from(appCharges)
      .where(and(eq(appCharges.appId, appId), eq(appCharges.kind, 'SUBSCRIPTION'), eq(appCharges.status, 'ACTIVE'), eq(appCharges.test, false)))
  ])
  const byMonth = new Map<string, { gross: number[], fee: number[], test: number[] }>()
  for (let back = 0; back < months; back++) byMonth.set(monthOf(monthStart(now, back)), { gross: [], fee: [], test: [] })
  for (const line of lines) {
    const month = byMonth.get(monthOf(line.periodEnd))
    month?.gross.push(line.amount)
    month?.fee.push(feeOf(line.amount, context.platformFeePercent))
  }
  for (const charge of [...testCharges, ...testUsage]) if (charge.at !== null) byMonth.get(monthOf(charge.at))?.test.push(charge.amount)
  const currency = context.currency
  return {
    months: [...byMonth.entries()].map(([month, figures]) => {
      const gross = sum(figures.gross)
      const fee = sum(figures.fee)
      return {
        month, gross: money(gross, currency), fee: money(fee, currency), net: money(gross - fee, currency), testGross: money(sum(figures.test), currency)
      }
    }),
    payingInstallations: new Set(active.map((row) => row.installationId)).size,
    monthlyRecurringRevenue: money(sum(active.map((row) => row.interval === 'ANNUAL' ? monthlyOfAnnual(row.amount) : row.amount)), currency),
    platformFeePercent: context.platformFeePercent
  }
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; a leading =+-@ is defused for spreadsheets. */
function csvField (value: string | number): string {
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** Every invoice line of the app, newest first, as CSV (EARNINGS_CSV_COLUMNS); amounts in minor units. */
export async function earningsCsv (context: BillingContext, appId: string): Promise<string> {
  const rows = await context.db.select({
    invoiceId: invoiceLines.invoiceId, businessId: invoiceLines.businessId, periodEnd: invoiceLines.periodEnd,
    periodStart: invoices.periodStart,
    chargeId: invoiceLines.chargeId, kind: invoiceLines.kind, description: invoiceLines.description,
    amount: invoiceLines.amount, currency: invoiceLines.currency
  }).from(invoiceLines).innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId)).where(eq(invoiceLines.appId, appId))
    .orderBy(desc(invoiceLines.periodEnd), asc(invoiceLines.invoiceId), asc(invoiceLines.position))
  const body = rows.map((row) => {
    const fee = feeOf(row.amount, context.platformFeePercent)
    return [row.invoiceId, row.businessId, row.periodStart.toISOString(), row.periodEnd.toISOString(), row.chargeId, row.kind, row.description,
      row.amount, row.currency, fee, row.amount - fee].map(csvField).join(',')
  })
  return [EARNINGS_CSV_COLUMNS.join(','), ...body].join('\r\n') + '\r\n'
}
