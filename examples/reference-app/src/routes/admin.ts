import type { FastifyInstance } from 'fastify'
import { AppApiError } from '@app-platform/sdk'
import { origin, type Context } from '../context.ts'
import { page } from '../html.ts'
import { verifiedSession } from '../session.ts'
import { currentSubscription, paidPlan } from '../billing.ts'
import { refreshOrderFeed } from '../order-feed.ts'

/*
 * The admin page (manifest adminPages[].renderUrl), framed by the platform's admin panel. The page's
 * script receives a session token in service:init and calls /admin/api/overview with it; the token is
 * verified here with the installation's webhook secret before any App API call.
 */

export const ADMIN_PAGE_PATH = '/admin'
export const OVERVIEW_PATH = '/admin/api/overview'
const OVERVIEW_DAYS = 30

export default async function adminRoutes (fastify: FastifyInstance, { context }: { context: Context }) {
  fastify.get(ADMIN_PAGE_PATH, async (_request, reply) => {
    return reply
      .type('text/html; charset=utf-8')
      // only the platform's admin panel may frame this page
      .header('content-security-policy', `default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors ${origin(context.urls.adminUrl)}`)
      .send(page({
        title: 'Reference app',
        scripts: ['admin'],
        data: { adminOrigin: origin(context.urls.adminUrl) },
        body: '<main><p id="status" class="card muted" role="status">Loading…</p><div id="content" aria-live="polite"></div></main>'
      }))
  })

  fastify.get(OVERVIEW_PATH, async (request, reply) => {
    const session = verifiedSession(context, request, reply)
    if (session === null) return reply
    const { installation, claims } = session
    const api = context.api(installation)
    const to = context.now()
    const from = new Date(to.getTime() - (OVERVIEW_DAYS - 1) * 86_400_000)
    try {
      const [business, dashboard, reviews, subscription, feed] = await Promise.all([
        api.business.get(),
        api.analytics.dashboard({ from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) }),
        api.reviews.stats(),
        currentSubscription(context, installation),
        // only the orders changed since the last time the page opened (src/order-feed.ts)
        refreshOrderFeed(context, installation)
      ])
      return {
        business: { id: business.id, name: business.name, currency: business.currency },
        installation: { installationId: installation.installationId, scopes: installation.scopes, installedAt: installation.installedAt },
        verifiedAs: { userId: claims.sub, expiresAt: new Date(claims.exp * 1000).toISOString() },
        orders: { total: dashboard.orderCount, revenue: dashboard.revenue },
        recentOrders: { orders: feed.orders, lastUpdatedAt: feed.lastUpdatedAt, read: feed.read },
        reviews: { averageRating: reviews.averageRating, totalReviews: reviews.totalReviews },
        events: context.store.events(installation.businessId).slice(0, 10).map(({ event, receivedAt, summary }) => ({ event, receivedAt, summary })),
        // the plan the store is on (null: free) and the one we offer
        billing: { subscription, offer: paidPlan() }
      }
    } catch (error) {
      if (!(error instanceof AppApiError)) throw error
      request.log.warn({ err: error, businessId: installation.businessId }, 'admin overview: App API call failed')
      return reply.code(502).send({ statusCode: 502, error: 'Bad Gateway', message: `The platform answered ${error.statusCode}: ${error.message}` })
    }
  })
}
