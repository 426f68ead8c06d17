import type { FastifyRequest } from 'fastify'
import { Paginated } from '../../../server/schemas.ts'
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
export const OrderPage = Paginated(OrderAnswer)
export const ProductPage = Paginated(ProductAnswer)

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
  checkoutHooks: Pick<CheckoutHooks, 'placeOrder'>
  appAuth: Pick<AppAuth, 'requireScope'>
}
