import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { pageWindow } from '../../server/schemas.ts'
import { appCharges, appUsageRecords, billingAccounts, invoiceLines, invoices } from '../../server/db/schema/index.ts'
import type { Invoice, InvoiceLineKind } from '../../sdk/src/contract/billing.ts'
import { cycleMs, money, YEAR_DAYS, type AccountRow, type BillingContext, type ChargeRow } from './context.ts'
import { prorate, sum } from './money.ts'

interface Line { appId: string, chargeId: string, kind: InvoiceLineKind, description: string, amount: number }

const day = (date: Date): string => date.toISOString().slice(0, 10)

/**
 * The recurring lines of a subscription for the period [start, end) (docs/decisions.md "Proration and
 * rounding"): billable from its approval or the end of its trial, whichever is later, until it ended.
 * EVERY_30_DAYS: the price times the exact share of the 30-day cycle it was billable, half up, once per
 * line. ANNUAL: the whole price in the cycle where each of its years starts (the first at the end of the trial).
 */
export function recurringLines (context: BillingContext, charge: ChargeRow, start: Date, end: Date): Line[] {
  if (charge.activatedAt === null) return []
  const billableFrom = Math.max(charge.activatedAt.getTime(), charge.trialEndsAt?.getTime() ?? 0)
  const billableUntil = charge.endedAt?.getTime() ?? Number.POSITIVE_INFINITY
  if (charge.interval === 'ANNUAL') {
    const yearMs = YEAR_DAYS * context.dayMs
    const lines: Line[] = []
    const first = Math.max(0, Math.ceil((start.getTime() - billableFrom) / yearMs))
    for (let k = first; billableFrom + k * yearMs < end.getTime(); k++) {
      const yearStart = billableFrom + k * yearMs
      if (yearStart >= billableUntil) break
      if (yearStart < start.getTime()) continue
      lines.push({
        appId: charge.appId, chargeId: charge.id, kind: 'RECURRING', amount: charge.amount,
        description: `${charge.name}: the year from ${day(new Date(yearStart))}`
      })
    }
    return lines
  }
  const from = Math.max(billableFrom, start.getTime())
  const until = Math.min(billableUntil, end.getTime())
  if (until <= from) return []
  const activeMs = until - from
  const whole = activeMs >= cycleMs(context)
  return [{
    appId: charge.appId,
    chargeId: charge.id,
    kind: 'RECURRING',
    amount: prorate(charge.amount, activeMs, cycleMs(context)),
    description: whole
      ? `${charge.name}: ${day(start)} to ${day(end)}`
      : `${charge.name}: ${day(new Date(from))} to ${day(new Date(until))}, ${(activeMs / context.dayMs).toFixed(2)} of ${30} days`
  }]
}

/** The lines of one business's period: recurring fees, purchases approved in it, usage recorded in it; test charges never. */
async function linesOf (tx: Tx, context: BillingContext, businessId: string, start: Date, end: Date): Promise<Line[]> {
  const subscriptions = await tx.select().from(appCharges).where(and(
    eq(appCharges.businessId, businessId), eq(appCharges.kind, 'SUBSCRIPTION'), eq(appCharges.test, false),
    isNotNull(appCharges.activatedAt), lt(appCharges.activatedAt, end), or(isNull(appCharges.endedAt), gt(appCharges.endedAt, start))
  )).orderBy(asc(appCharges.activatedAt), asc(appCharges.id))
  const purchases = await tx.select().from(appCharges).where(and(
    eq(appCharges.businessId, businessId), eq(appCharges.kind, 'PURCHASE'), eq(appCharges.test, false), eq(appCharges.status, 'ACTIVE'),
    gte(appCharges.activatedAt, start), lt(appCharges.activatedAt, end)
  )).orderBy(asc(appCharges.activatedAt), asc(appCharges.id))
  const usage = await tx.select({
    chargeId: appUsageRecords.chargeId, appId: appUsageRecords.appId, amount: sql<string>`sum(${appUsageRecords.amount})`, records: count(),
    name: appCharges.name, terms: appCharges.usageTerms
  }).from(appUsageRecords).innerJoin(appCharges, eq(appCharges.id, appUsageRecords.chargeId)).where(and(
    eq(appUsageRecords.businessId, businessId), eq(appUsageRecords.test, false), gte(appUsageRecords.createdAt, start), lt(appUsageRecords.createdAt, end)
  )).groupBy(appUsageRecords.chargeId, appUsageRecords.appId, appCharges.name, appCharges.usageTerms).orderBy(asc(appUsageRecords.chargeId))
  return [
    ...subscriptions.flatMap((charge) => recurringLines(context, charge, start, end)),
    ...purchases.map((charge): Line => ({ appId: charge.appId, chargeId: charge.id, kind: 'ONE_TIME', amount: charge.amount, description: charge.name })),
    ...usage.map((row): Line => ({
      appId: row.appId, chargeId: row.chargeId, kind: 'USAGE', amount: Number(row.amount),
      description: `${row.name} usage: ${row.records} record${row.records === 1 ? '' : 's'}${row.terms === null ? '' : ` (${row.terms})`}`
    }))
  ].filter((line) => line.amount > 0)
}

/** Writes the invoice of [start, end) (none when nothing is owed) and answers its id. */
async function writeInvoice (tx: Tx, context: BillingContext, businessId: string, start: Date, end: Date): Promise<string | null> {
  const lines = await linesOf(tx, context, businessId, start, end)
  if (lines.length === 0) return null
  const names = new Map((await context.apps.in(tx).findByIds([...new Set(lines.map((line) => line.appId))])).map((app) => [app.id, app.name]))
  const id = newId('inv')
  const written = await tx.insert(invoices).values({
    id, businessId, periodStart: start, periodEnd: end, total: sum(lines.map((line) => line.amount)), currency: context.currency, createdAt: context.clock.now()
  }).onConflictDoNothing({ target: [invoices.businessId, invoices.periodStart] }).returning({ id: invoices.id })
  if (written.length === 0) return null
  await tx.insert(invoiceLines).values(lines.map((line, position) => ({
    id: newId('inl'), invoiceId: id, position, businessId, appId: line.appId, appName: names.get(line.appId) ?? 'Removed app', chargeId: line.chargeId,
    kind: line.kind, description: line.description, amount: line.amount, currency: context.currency, periodEnd: end
  })))
  return id
}

/**
 * Closes every cycle that has ended by the clock's now: for each business whose cycle is over (locked,
 * SKIP LOCKED, so two workers never write one invoice), the invoice of each ended cycle in turn, then
 * the next cycle. Answers the invoices written.
 */
export async function closeDueCycles (context: BillingContext, limit = 100): Promise<string[]> {
  const now = context.clock.now()
  return await context.db.transaction(async (tx) => {
    const due = await tx.select().from(billingAccounts).where(lte(billingAccounts.nextInvoiceAt, now))
      .orderBy(asc(billingAccounts.nextInvoiceAt)).limit(limit).for('update', { skipLocked: true })
    const written: string[] = []
    for (const account of due) {
      let { cycleStart, nextInvoiceAt } = account
      while (nextInvoiceAt <= now) {
        const id = await writeInvoice(tx, context, account.businessId, cycleStart, nextInvoiceAt)
        if (id !== null) written.push(id)
        cycleStart = nextInvoiceAt
        nextInvoiceAt = new Date(nextInvoiceAt.getTime() + cycleMs(context))
      }
      await tx.update(billingAccounts).set({ cycleStart, nextInvoiceAt }).where(eq(billingAccounts.businessId, account.businessId))
    }
    return written
  })
}

function presentInvoices (rows: Array<typeof invoices.$inferSelect>, lines: Array<typeof invoiceLines.$inferSelect>): Invoice[] {
  return rows.map((row) => ({
    id: row.id,
    businessId: row.businessId,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    lines: lines.filter((line) => line.invoiceId === row.id).sort((a, b) => a.position - b.position).map((line) => ({
      appId: line.appId, appName: line.appName, chargeId: line.chargeId, kind: line.kind, description: line.description,
      amount: money(line.amount, line.currency)
    })),
    total: money(row.total, row.currency),
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString()
  }))
}

/** The business's invoices, newest first, with their lines. */
export async function invoicesOf (context: BillingContext, businessId: string, query: { page?: number, limit?: number }) {
  const { page, limit, offset } = pageWindow(query)
  const where = eq(invoices.businessId, businessId)
  const [rows, [{ total }]] = await Promise.all([
    context.db.select().from(invoices).where(where).orderBy(desc(invoices.periodEnd), desc(invoices.id)).limit(limit).offset(offset),
    context.db.select({ total: count() }).from(invoices).where(where)
  ])
  const lines = rows.length === 0 ? [] : await context.db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, rows.map((row) => row.id)))
  return { data: presentInvoices(rows, lines), total, page, limit }
}

export const nextInvoiceOf = (account: AccountRow | null): string | null => account?.nextInvoiceAt.toISOString() ?? null
