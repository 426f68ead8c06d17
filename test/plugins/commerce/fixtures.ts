import { and, asc, eq } from 'drizzle-orm'
import { outboxEvents } from '../../../server/db/schema/index.ts'
import type { App } from '../../../server/app.ts'
import { registerUser, type Session } from '../../helper.ts'

/** A merchant with an empty business (a merchant gets no sample data). */
export const newMerchant = (app: App): Promise<Session> => registerUser(app, 'MERCHANT')

/** Outbox rows of a business, oldest first, optionally of one event. */
export async function eventsOf (app: App, businessId: string, event?: string) {
  const where = event === undefined ? eq(outboxEvents.businessId, businessId) : and(eq(outboxEvents.businessId, businessId), eq(outboxEvents.event, event))
  return await app.db.select().from(outboxEvents).where(where).orderBy(asc(outboxEvents.seq))
}

export const eventNames = async (app: App, businessId: string) => (await eventsOf(app, businessId)).map((row) => row.event)

export async function createProduct (app: App, session: Session, body: Record<string, unknown> = {}) {
  const response = await app.inject({ method: 'POST', url: '/merchant/products', headers: session.auth, payload: { name: 'Widget', price: 1000, stock: 10, ...body } })
  if (response.statusCode !== 201) throw new Error(`create product failed: ${response.statusCode} ${response.body}`)
  return response.json()
}
