import type { FastifyRequest } from 'fastify'
import { Type, type TSchema } from '@sinclair/typebox'
import { Paginated } from '../../../server/schemas.ts'
import { CursorPage } from '../../../sdk/src/contract/bulk-exports.ts'
import { CURRENT_SCHEMAS, present } from '../../../sdk/src/contract/api-versions.ts'
import type { Order, Product } from '../../commerce/schemas.ts'
import type { CheckoutHooks } from '../../checkout-hooks/index.ts'
import type { Commerce } from '../../commerce/index.ts'
import type { AppAuth } from '../../installations/service.ts'

export const TAGS = ['app-api']
export const SECURITY = [{ appToken: [] }]

/** The token's business: every App API query is scoped to it. */
export const businessOf = (request: FastifyRequest): string => request.installation.businessId

/**
 * The App API's handlers answer in the newest API version's shape (its schemas: the registry's
 * CURRENT_SCHEMAS); the versioning (plugins/api-versions) downgrades an answer for an app pinned to
 * an older one. The commerce module's records are unversioned, shared with the merchant API: they are
 * presented in the newest shape by the registry's own transforms, never by a mapping of their own.
 */
export const OrderAnswer = CURRENT_SCHEMAS.Order
export const ProductAnswer = CURRENT_SCHEMAS.Product
/** A list's answer: the page envelope, or in cursor mode (updatedSince or cursor given, DESIGN §25) the cursor envelope. */
export const ListAnswer = <T extends TSchema>(item: T) => Type.Union([Paginated(item), CursorPage(item)])
export const OrderPage = ListAnswer(OrderAnswer)
export const ProductPage = ListAnswer(ProductAnswer)

/** Cursor mode's wording, shared by the three lists' descriptions. */
export const CURSOR_MODE = ' Cursor mode (incremental sync): with `updatedSince` (ISO 8601, inclusive; a full sync sends 1970-01-01T00:00:00Z) or `cursor`, ' +
  'the records changed since, ordered by (updatedAt, id) ascending, in the envelope {data, limit, nextCursor}; follow nextCursor with `cursor` and `limit` only (null at the end). ' +
  'A malformed updatedSince is 400 updated_since_invalid, a cursor not given out by the list 400 cursor_invalid.'

/**
 * The list query as cursor mode reads it: `page` only when the request named it (the validator fills
 * in page 1 otherwise), so that a page in cursor mode is refused rather than ignored.
 */
export function syncQueryOf<Q extends { page?: number }> (request: FastifyRequest, query: Q): Q {
  const named = request.url.includes('?') && new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1)).has('page')
  return named ? query : { ...query, page: undefined }
}

/** A cursor-mode answer (DESIGN §25). */
export interface CursorAnswer { data: unknown[], limit: number, nextCursor: string | null }

/** An order in the newest shape (it carries its own currency). */
export const presentOrder = (order: Order): unknown => present('Order', order, { currency: order.currency })

export function presentOrders<T extends { data: Order[] }> (page: T): Omit<T, 'data'> & { data: unknown[] } {
  return { ...page, data: page.data.map(presentOrder) }
}

/** Products in the newest shape: priced in their business's currency. */
export async function presentProducts<T> (commerce: Pick<Commerce, 'getBusinessProfile'>, businessId: string, value: T): Promise<unknown> {
  const context = { currency: (await commerce.getBusinessProfile(businessId)).currency }
  const page = value as { data?: Product[] }
  return Array.isArray(page.data)
    ? { ...page, data: page.data.map((product) => present('Product', product, context)) }
    : present('Product', value, context)
}

/** What each App API route file is registered with: the ports its handlers call, and the scope guard. */
export interface AppApiRouteOptions {
  commerce: Commerce
  /** SYNC_SETTLE_SECONDS: cursor mode shows the changes at least this old (config.ts). */
  syncSettleSeconds: number
  checkoutHooks: Pick<CheckoutHooks, 'placeOrder'>
  appAuth: Pick<AppAuth, 'requireScope'>
}
