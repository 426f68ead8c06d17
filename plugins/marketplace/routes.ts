import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from '@sinclair/typebox'
import { Paginated, PaginationQuery, errorResponses, pageWindow } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { AppListingSchema, CategorySchema } from '../../sdk/src/contract/index.ts'
import { listedPricing, type Apps, type AppRow } from '../apps/service.ts'
import { emptyRating, type AppReviews } from '../app-reviews/service.ts'
import { PublicReviewsQuery } from '../app-reviews/schemas.ts'
import { AppReviewSchema } from '../../sdk/src/contract/index.ts'
import type { AuthService } from '../auth/index.ts'
import type { Installations } from '../installations/index.ts'

const tags = ['marketplace']
const MARKETPLACE_SORTS = ['newest', 'name', 'rating', 'installs'] as const
type Listing = Static<typeof AppListingSchema>

const ListQuery = Type.Intersect([
  PaginationQuery(),
  Type.Object({
    category: Type.Optional(CategorySchema),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Search in name and description' })),
    sort: Type.Optional(Type.Union(MARKETPLACE_SORTS.map((sort) => Type.Literal(sort)), {
      default: 'newest', description: 'newest: latest published first; name: A to Z; rating: highest average first (unrated last); installs: most live installs first'
    }))
  })
])

/** Public marketplace: published apps only; DRAFT apps never appear. */
/** What the marketplace needs of the others: the published apps, their developers' names, their live install counts, their reviews. */
export interface MarketplaceNeeds {
  apps: Pick<Apps, 'listPublished' | 'allPublished' | 'publishedBySlug'>
  auth: Pick<AuthService, 'namesOf'>
  installations: Pick<Installations, 'liveInstallCounts'>
  appReviews: Pick<AppReviews, 'ratingsOf' | 'publicList'>
}

/** Rating sort: the higher average first, then more reviews; unrated apps last. */
const byRating = (a: Listing, b: Listing) => (b.rating.average ?? -1) - (a.rating.average ?? -1) || b.rating.count - a.rating.count

const marketplaceRoutes: FastifyPluginAsyncTypebox<MarketplaceNeeds> = async (fastify, { apps, auth, installations, appReviews }) => {
  /**
   * Listings of published apps: developer names from accounts, live install counts from installations, ratings from
   * app reviews; the approved scopes and pricing only.
   */
  async function listings (rows: AppRow[]): Promise<Listing[]> {
    const ids = rows.map((row) => row.id)
    const [names, counts, ratings] = await Promise.all([
      auth.namesOf(rows.map((row) => row.developerId)), installations.liveInstallCounts(ids), appReviews.ratingsOf(ids)
    ])
    return rows.map((row) => ({
      id: row.id, clientId: row.clientId, name: row.name, slug: row.slug, description: row.description, category: row.category,
      iconUrl: row.iconUrl, screenshots: row.screenshots, scopes: row.approvedScopes, pricing: listedPricing(row), version: row.version,
      developerName: names.get(row.developerId) ?? '', installCount: counts.get(row.id) ?? 0, publishedAt: row.publishedAt?.toISOString() ?? null,
      appUrl: row.appUrl, rating: ratings.get(row.id) ?? emptyRating()
    }))
  }

  fastify.get('/apps', {
    schema: { tags, operationId: 'listMarketplaceApps', security: [], summary: 'Browse published apps', description: 'Public. Published apps only, filtered by category and a text search over name and description, sorted by `sort` (ties: newest first); install counts leave test installs out, ratings leave hidden reviews out.', querystring: ListQuery, response: { 200: Paginated(AppListingSchema), ...errorResponses(400) } }
  }, async (request) => {
    const { sort, ...query } = request.query
    if (sort === 'rating' || sort === 'installs') {
      // the figures live in other capabilities: the filter's published apps are few enough to sort here (docs/decisions.md)
      const { page, limit, offset } = pageWindow(query)
      const all = await listings(await apps.allPublished(query))
      all.sort(sort === 'rating' ? byRating : (a, b) => b.installCount - a.installCount)
      return { data: all.slice(offset, offset + limit), total: all.length, page, limit }
    }
    const { rows, total, page, limit } = await apps.listPublished({ ...query, sort })
    return { data: await listings(rows), total, page, limit }
  })

  fastify.get('/apps/:slug', {
    schema: { tags, operationId: 'getMarketplaceApp', security: [], summary: 'A published app by slug', description: 'Public. A published app with its listing details (appUrl for the Install button, the approved pricing plans); 404 for an unknown or unpublished slug.', params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) }), response: { 200: AppListingSchema, ...errorResponses(404) } }
  }, async (request) => {
    const app = await apps.publishedBySlug(request.params.slug)
    if (app === null) throw notFound('app_not_found', 'App')
    return (await listings([app]))[0]
  })

  fastify.get('/apps/:slug/reviews', {
    schema: {
      tags, operationId: 'listMarketplaceAppReviews', security: [], summary: 'Businesses\' reviews of a published app',
      description: 'Public. Hidden reviews left out; `sort=recent` newest first, `sort=rating` highest first; each with the developer\'s answer, if any. ' +
        '404 for an unknown or unpublished slug.',
      params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) }), querystring: PublicReviewsQuery,
      response: { 200: Paginated(AppReviewSchema), ...errorResponses(400, 404) }
    }
  }, async (request) => {
    const app = await apps.publishedBySlug(request.params.slug)
    if (app === null) throw notFound('app_not_found', 'App')
    return await appReviews.publicList(app.id, request.query)
  })
}

export default marketplaceRoutes
