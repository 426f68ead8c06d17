import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Paginated, PaginationQuery, errorResponses } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { AppListingSchema, CategorySchema } from '../../sdk/src/contract/index.ts'
import { listedPricing, type Apps, type AppRow } from '../apps/service.ts'
import type { AuthService } from '../auth/index.ts'
import type { Installations } from '../installations/index.ts'

const tags = ['marketplace']

const ListQuery = Type.Intersect([
  PaginationQuery(),
  Type.Object({ category: Type.Optional(CategorySchema), q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Search in name and description' })) })
])

/** Public marketplace: published apps only; DRAFT apps never appear. */
/** What the marketplace needs of the others: the published apps, their developers' names, their live install counts. */
export interface MarketplaceNeeds {
  apps: Pick<Apps, 'listPublished' | 'publishedBySlug'>
  auth: Pick<AuthService, 'namesOf'>
  installations: Pick<Installations, 'liveInstallCounts'>
}

const marketplaceRoutes: FastifyPluginAsyncTypebox<MarketplaceNeeds> = async (fastify, { apps, auth, installations }) => {
  /** Listings of published apps: developer names from accounts, live install counts from installations; the approved scopes and pricing only. */
  async function listings (rows: AppRow[]) {
    const ids = rows.map((row) => row.id)
    const [names, counts] = await Promise.all([auth.namesOf(rows.map((row) => row.developerId)), installations.liveInstallCounts(ids)])
    return rows.map((row) => ({
      id: row.id, clientId: row.clientId, name: row.name, slug: row.slug, description: row.description, category: row.category,
      iconUrl: row.iconUrl, screenshots: row.screenshots, scopes: row.approvedScopes, pricing: listedPricing(row), version: row.version,
      developerName: names.get(row.developerId) ?? '', installCount: counts.get(row.id) ?? 0, publishedAt: row.publishedAt?.toISOString() ?? null,
      appUrl: row.appUrl
    }))
  }

  fastify.get('/apps', {
    schema: { tags, operationId: 'listMarketplaceApps', security: [], summary: 'Browse published apps', description: 'Public. Published apps only, filtered by category and a text search over name and description; install counts leave test installs out.', querystring: ListQuery, response: { 200: Paginated(AppListingSchema), ...errorResponses(400) } }
  }, async (request) => {
    const { rows, total, page, limit } = await apps.listPublished(request.query)
    return { data: await listings(rows), total, page, limit }
  })

  fastify.get('/apps/:slug', {
    schema: { tags, operationId: 'getMarketplaceApp', security: [], summary: 'A published app by slug', description: 'Public. A published app with its listing details (appUrl for the Install button, the approved pricing plans); 404 for an unknown or unpublished slug.', params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) }), response: { 200: AppListingSchema, ...errorResponses(404) } }
  }, async (request) => {
    const app = await apps.publishedBySlug(request.params.slug)
    if (app === null) throw notFound('app_not_found', 'App')
    return (await listings([app]))[0]
  })
}

export default marketplaceRoutes
