import type { FastifyInstance } from 'fastify'
import { txExecutor, type Db, type Tx } from '../../server/db/client.ts'
import { HttpError } from '../../server/http-errors.ts'
import type { Jobs } from '../../server/jobs.ts'
import { findOrderRow } from './orders-service.ts'
import { expireUnpaidOrder } from './payments-service.ts'

export const PAYMENT_EXPIRY_JOB = 'payment.expire'
/** Expiry is idempotent (it re-reads the order), so a failed attempt can simply run again. */
const RETRY_LIMIT = 5

export interface PaymentExpiry { businessId: string, orderId: string, expiresAt: Date }
interface PaymentExpiryJob { businessId: string, orderId: string, expiresAt: string }

export async function schedulePaymentExpiry (jobs: Jobs, tx: Tx, input: PaymentExpiry): Promise<void> {
  const data: PaymentExpiryJob = { businessId: input.businessId, orderId: input.orderId, expiresAt: input.expiresAt.toISOString() }
  await jobs.ensureQueue(PAYMENT_EXPIRY_JOB)
  // the deadline as a time: the job never starts before it (pg-boss compares with the database's clock, docs/decisions.md)
  await jobs.boss.send(PAYMENT_EXPIRY_JOB, data, { startAfter: input.expiresAt, retryLimit: RETRY_LIMIT, retryBackoff: true, db: txExecutor(tx) })
}

export type ExpiryOutcome = 'expired' | 'settled' | 'rescheduled' | 'gone'

/**
 * Expires the payment if it is still PENDING and its deadline (which a later session may have moved)
 * has passed, under the order's row lock so a payment completing at the same moment wins or loses cleanly.
 * A storefront order paid with a built-in method (CASH, CARD) has a deadline too (its stock hold); once
 * the merchant has accepted it (past PENDING) it is paid on delivery and no longer expires.
 */
export async function expireIfDue (db: Db, job: PaymentExpiryJob, now: Date): Promise<ExpiryOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const order = await findOrderRow(tx, job.businessId, job.orderId, true)
      if (order.paymentStatus !== 'PENDING' || (order.paymentMethodId === null && order.status !== 'PENDING')) return 'settled'
      if (order.paymentExpiresAt === null || order.paymentExpiresAt > now) return 'rescheduled'
      await expireUnpaidOrder(tx, job.businessId, job.orderId)
      return 'expired'
    })
  } catch (error) {
    if (error instanceof HttpError && error.code === 'order_not_found') return 'gone'
    throw error
  }
}

/** The worker that expires unpaid payments at their paymentExpiresAt (payment.expired for app methods) and releases their stock. */
export async function startPaymentExpiry (fastify: FastifyInstance): Promise<(tx: Tx, input: PaymentExpiry) => Promise<void>> {
  // The queue exists before any transaction schedules into it
  await fastify.jobs.work<PaymentExpiryJob>(PAYMENT_EXPIRY_JOB, async (job) => {
    const outcome = await expireIfDue(fastify.db, job.data, fastify.clock.now())
    fastify.log.info({ orderId: job.data.orderId, outcome }, 'payment expiry')
  })
  return async (tx, input) => await schedulePaymentExpiry(fastify.jobs, tx, input)
}
