import { and, eq, sql } from 'drizzle-orm'
import { promoCodes } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { businessPage, isUniqueViolation } from '../../server/db/rows.ts'
import { badRequest, conflict, notFound, unprocessable } from './errors.ts'
import { pageWindow } from '../../server/schemas.ts'
import { PROMO_CODE_PAGE_LIMITS, type PromoCode, type PromoCodeCreateBody, type PromoCodePatchBody } from './schemas.ts'
import { databaseNow } from '../../server/clock.ts'

type PromoCodeRow = typeof promoCodes.$inferSelect

/** Codes are matched whatever case the shopper types: stored and compared upper case. */
export const normalizePromoCode = (code: string): string => code.trim().toUpperCase()

function serializePromoCode (row: PromoCodeRow): PromoCode {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    minSubtotal: row.minSubtotal,
    active: row.active,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

const codeTaken = () => conflict('promo_code_taken', 'This business already has this promo code')

/** Exactly one of percentOff and amountOff, checked on the record as it will be stored. */
function checkKind (record: { percentOff: number | null, amountOff: number | null }): void {
  if ((record.percentOff === null) === (record.amountOff === null)) throw badRequest('promo_code_discount_invalid', 'body must have exactly one of percentOff and amountOff')
}

export async function listPromoCodes (executor: Executor, businessId: string, query: { page?: number, limit?: number } = {}) {
  const { page, limit, offset } = pageWindow(query, PROMO_CODE_PAGE_LIMITS)
  const { rows, total } = await businessPage(executor, promoCodes, 'promo_codes_page', businessId, { limit, offset })
  return { data: rows.map(serializePromoCode), total, page, limit }
}

export async function getPromoCode (executor: Executor, businessId: string, id: string): Promise<PromoCode> {
  const [row] = await executor.select().from(promoCodes).where(and(eq(promoCodes.businessId, businessId), eq(promoCodes.id, id))).limit(1)
  if (row === undefined) throw notFound('promo_code_not_found', 'Promo code')
  return serializePromoCode(row)
}

export async function createPromoCode (executor: Executor, businessId: string, input: PromoCodeCreateBody): Promise<PromoCode> {
  const record = { percentOff: input.percentOff ?? null, amountOff: input.amountOff ?? null }
  checkKind(record)
  try {
    const [row] = await executor.insert(promoCodes).values({
      id: newId('promo'),
      businessId,
      code: normalizePromoCode(input.code),
      ...record,
      minSubtotal: input.minSubtotal ?? null,
      active: input.active ?? true,
      expiresAt: input.expiresAt === undefined || input.expiresAt === null ? null : new Date(input.expiresAt)
    }).returning()
    return serializePromoCode(row)
  } catch (error) {
    throw isUniqueViolation(error) ? codeTaken() : error
  }
}

export async function updatePromoCode (executor: Executor, businessId: string, id: string, patch: PromoCodePatchBody): Promise<PromoCode> {
  try {
    return await executor.transaction(async (tx) => {
      const [before] = await tx.select().from(promoCodes).where(and(eq(promoCodes.businessId, businessId), eq(promoCodes.id, id))).limit(1).for('update')
      if (before === undefined) throw notFound('promo_code_not_found', 'Promo code')
      checkKind({
        percentOff: patch.percentOff === undefined ? before.percentOff : patch.percentOff,
        amountOff: patch.amountOff === undefined ? before.amountOff : patch.amountOff
      })
      const { expiresAt, code, ...rest } = patch
      const [row] = await tx.update(promoCodes).set({
        ...rest,
        ...(code === undefined ? {} : { code: normalizePromoCode(code) }),
        ...(expiresAt === undefined ? {} : { expiresAt: expiresAt === null ? null : new Date(expiresAt) }),
        updatedAt: databaseNow()
      }).where(and(eq(promoCodes.businessId, businessId), eq(promoCodes.id, id))).returning()
      return serializePromoCode(row)
    })
  } catch (error) {
    throw isUniqueViolation(error) ? codeTaken() : error
  }
}

export async function deletePromoCode (executor: Executor, businessId: string, id: string): Promise<void> {
  const [row] = await executor.delete(promoCodes).where(and(eq(promoCodes.businessId, businessId), eq(promoCodes.id, id))).returning({ id: promoCodes.id })
  if (row === undefined) throw notFound('promo_code_not_found', 'Promo code')
}

/** 1234 USD → "12.34 USD": the message is read by a shopper, who types major units. */
function majorUnits (minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`
}

/** A refused code: 422 naming the field, so a shop page shows the message beside it. */
const refused = (message: string) => unprocessable('promo_code_not_applicable', message, { field: 'promoCode' })

/** Whether a code's expiry has passed at `now` (the caller's clock), or by the database's clock when none is given. */
const promoExpired = (now: Date | undefined) =>
  sql<boolean>`coalesce(${promoCodes.expiresAt} <= coalesce(${now?.toISOString() ?? null}::timestamptz, now()), false)`

/**
 * What the business's promo code takes off this subtotal (capped at it), or a 422 saying why it
 * does not apply: unknown, switched off, expired, or below its minimum subtotal.
 */
export async function applyPromoCode (executor: Executor, businessId: string, code: string, order: { subtotal: number, currency: string },
  now?: Date): Promise<{ code: string, discount: number }> {
  const { subtotal, currency } = order
  const normalized = normalizePromoCode(code)
  const [found] = normalized === ''
    ? []
    : await executor.select({ row: promoCodes, expired: promoExpired(now) }).from(promoCodes)
      .where(and(eq(promoCodes.businessId, businessId), eq(promoCodes.code, normalized))).limit(1)
  if (found === undefined) throw refused(`Promo code ${JSON.stringify(code.trim())} does not exist`)
  const { row, expired } = found
  if (!row.active) throw refused(`Promo code ${row.code} is not active`)
  if (expired) throw refused(`Promo code ${row.code} has expired`)
  if (row.minSubtotal !== null && subtotal < row.minSubtotal) {
    throw unprocessable('promo_code_min_subtotal', `Promo code ${row.code} needs a subtotal of at least ${majorUnits(row.minSubtotal, currency)}`, { field: 'promoCode', minSubtotal: row.minSubtotal })
  }
  const discount = row.percentOff !== null ? Math.floor(subtotal * row.percentOff / 100) : row.amountOff ?? 0
  return { code: row.code, discount: Math.min(discount, subtotal) }
}
