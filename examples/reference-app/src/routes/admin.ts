import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppApiError, SessionTokenError, verifySessionToken, type SessionTokenClaims } from '@app-platform/sdk'
import { origin, type Context } from '../context.ts'
import { page } from '../html.ts'
import type { Installation } from '../store.ts'

/*
 * The admin page (manifest adminPages[].renderUrl), framed by the platform's admin panel. The page's
 * script receives a session token in service:init and calls /admin/api/overview with it; the token is
 * verified here with the installation's webhook secret before any App API call.
 */

export const ADMIN_PAGE_PATH = '/admin'
export const OVERVIEW_PATH = '/admin/api/overview'
const OVERVIEW_DAYS = 30

function unauthorized (reply: FastifyReply, message: string) {
  return reply.code(401).header('www-authenticate', 'Bearer').send({ statusCode: 401, error: 'Unauthorized', message })
}

/** The installation a token claims to be for, read before its signature is checked (the secret depends on it). */
function claimedBusiness (token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { businessId?: unknown }
    return typeof claims.businessId === 'string' ? claims.businessId : null
  } catch {
    return null
  }
}

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
    const header = request.headers.authorization ?? ''
    const token = header.startsWith('Bearer ') ? header.slice(7) : ''
    const credentials = context.store.credentials()
    const installation: Installation | null = context.store.installation(claimedBusiness(token) ?? '')
    if (token === '' || credentials === null || installation === null) return unauthorized(reply, 'A session token from the admin panel is required')
    let claims: SessionTokenClaims
    try {
      claims = verifySessionToken(token, { secret: installation.webhookSecret, clientId: credentials.clientId, issuer: origin(context.urls.adminUrl) })
    } catch (error) {
      if (error instanceof SessionTokenError) return unauthorized(reply, error.message)
      throw error
    }
    if (claims.installationId !== installation.installationId) return unauthorized(reply, 'Session token is for an earlier installation')

    const api = context.api(installation)
    const to = context.now()
    const from = new Date(to.getTime() - (OVERVIEW_DAYS - 1) * 86_400_000)
    try {
      const [business, dashboard, reviews] = await Promise.all([
        api.business.get(),
        api.analytics.dashboard({ from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) }),
        api.reviews.stats()
      ])
      return {
        business: { id: business.id, name: business.name, currency: business.currency },
        installation: { installationId: installation.installationId, scopes: installation.scopes, installedAt: installation.installedAt },
        verifiedAs: { userId: claims.sub, expiresAt: new Date(claims.exp * 1000).toISOString() },
        orders: { total: dashboard.orderCount, revenue: dashboard.revenue },
        reviews: { averageRating: reviews.averageRating, totalReviews: reviews.totalReviews },
        events: context.store.events(installation.businessId).slice(0, 10).map(({ event, receivedAt, summary }) => ({ event, receivedAt, summary }))
      }
    } catch (error) {
      if (!(error instanceof AppApiError)) throw error
      request.log.warn({ err: error, businessId: installation.businessId }, 'admin overview: App API call failed')
      return reply.code(502).send({ statusCode: 502, error: 'Bad Gateway', message: `The platform answered ${error.statusCode}: ${error.message}` })
    }
  })
}
