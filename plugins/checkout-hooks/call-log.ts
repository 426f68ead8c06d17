import { and, eq, sql, type SQL } from 'drizzle-orm'
import { deleteInBatches, logPage } from '../../server/db/rows.ts'
import { hookCalls } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { databaseNowMinus } from '../../server/clock.ts'
import type { HookPoint } from '../apps/manifest/schemas.ts'
import type { HookResult } from './hook-call.ts'

/** Characters of a hook's answer kept in the call log. */
export const ANSWER_LOG_CHARS = 4096

/** A written call-log line, as the analytics and the live tail see it. */
export type LoggedCall = typeof hookCalls.$inferInsert & { id: string, createdAt: Date }

function publicCall (row: typeof hookCalls.$inferSelect) {
  return {
    id: row.id, installationId: row.installationId, businessId: row.businessId, hookPoint: row.hookPoint, url: row.url, statusCode: row.statusCode,
    durationMs: row.durationMs, error: row.error, success: row.success, failurePolicy: row.failurePolicy, relayed: row.relayed,
    createdAt: row.createdAt.toISOString()
  }
}

function parseAnswer (text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** What the checkout does when a hook fails (DESIGN §10), in the words the console shows. */
export function policyApplied (hookPoint: HookPoint, failurePolicy: 'open' | 'closed'): string {
  switch (hookPoint) {
    case 'checkout.payment_methods': return "The app's payment methods were left out of the checkout"
    case 'checkout.shipping_rates': return 'The delivery fee so far was kept'
    case 'order.calculate_discounts': return 'No discount from this app was added'
    case 'checkout.create_payment': return 'The checkout failed with 502; the order stays unpaid'
    case 'order.validate': return failurePolicy === 'closed'
      ? 'Fail-closed (manifest failurePolicy "closed"): the order was refused'
      : 'Fail-open: the order went through without this validation'
  }
}

export interface CallLogQuery { page?: number, limit?: number, hookPoint?: string, success?: boolean, before?: string }

/** The hook call log of an app, newest first (the developer's console). */
export async function callLog (executor: Executor, appId: string, query: CallLogQuery) {
  const filters: SQL[] = [eq(hookCalls.appId, appId)]
  if (query.hookPoint !== undefined) filters.push(eq(hookCalls.hookPoint, query.hookPoint))
  if (query.success !== undefined) filters.push(eq(hookCalls.success, query.success))
  const { rows, total, page, limit, nextCursor } = await logPage(executor, hookCalls, and(...filters), query)
  return { data: rows.map(publicCall), total, page, limit, nextCursor }
}

/** One call of the app's log with what was sent, the answer and what the checkout did about a failure; another app's → null. */
export async function callOfApp (executor: Executor, appId: string, id: string) {
  const [row] = await executor.select().from(hookCalls).where(and(eq(hookCalls.appId, appId), eq(hookCalls.id, id))).limit(1)
  if (row === undefined) return null
  return {
    ...publicCall(row),
    requestBody: row.requestBody ?? null,
    answer: row.answer,
    policyApplied: row.success ? null : policyApplied(row.hookPoint as HookPoint, row.failurePolicy ?? 'open')
  }
}

/**
 * The calls of the checkout that placed an order of this business, in call order, with each answer
 * parsed (null when none came or it was not JSON): the merchant's order detail.
 */
export async function callsOfOrder (executor: Executor, businessId: string, orderId: string) {
  const rows = await executor.select().from(hookCalls).where(and(eq(hookCalls.businessId, businessId), eq(hookCalls.orderId, orderId)))
    .orderBy(hookCalls.createdAt, hookCalls.id)
  return rows.map((row) => ({
    ...publicCall(row),
    appId: row.appId,
    answer: parseAnswer(row.answer),
    policyApplied: row.success ? null : policyApplied(row.hookPoint as HookPoint, row.failurePolicy ?? 'open')
  }))
}

/** Calls older than the retention, which follows the webhook log's (DELIVERY_LOG_RETENTION_DAYS). */
export async function pruneCalls (executor: Executor, retentionDays: number): Promise<number> {
  return await deleteInBatches(executor, 'hook_calls', 'id', sql`created_at < ${databaseNowMinus({ days: retentionDays })}`)
}

/** The call-log lines of one hook point's calls in a checkout step (`orderId`: the order it places, if any). */
export function callLogLines (businessId: string, hookPoint: HookPoint, results: Array<HookResult<HookPoint>>, orderId: string | null, at: Date): LoggedCall[] {
  return results.map((result) => ({
    id: result.exchange.id,
    appId: result.hook.appId,
    installationId: result.hook.installationId,
    businessId,
    hookPoint,
    url: result.hook.url,
    success: result.ok,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.ok ? null : result.error,
    requestBody: result.exchange.request,
    answer: result.exchange.text === null ? null : result.exchange.text.slice(0, ANSWER_LOG_CHARS),
    relayed: result.exchange.relayed === true,
    failurePolicy: result.hook.failurePolicy,
    orderId,
    createdAt: at
  }))
}
