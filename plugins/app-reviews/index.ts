import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import developerAppReviewRoutes from './developer-routes.ts'
import merchantAppReviewRoutes from './merchant-routes.ts'
import reviewerAppReviewRoutes from './reviewer-routes.ts'
import { startAppReviews, type AppReviews, type AppReviewsNeeds } from './service.ts'

export type { AppReviews, AppReviewsNeeds }

/** Businesses' reviews of apps (DESIGN §24): the merchant's rating, the developer's answer, a reviewer's hiding; the marketplace reads the port. */
export default fp<CapabilityOptions<AppReviewsNeeds, AppReviews>>(async function appReviewsCapability (fastify, { expose, ...needs }) {
  const appReviews = startAppReviews(fastify, needs)
  expose(appReviews)
  await fastify.register(merchantAppReviewRoutes, { prefix: PREFIX.merchant, appReviews, guards: needs.guards })
  await fastify.register(developerAppReviewRoutes, { prefix: PREFIX.developerApps, appReviews, apps: needs.apps, guards: needs.guards })
  await fastify.register(reviewerAppReviewRoutes, { prefix: PREFIX.review, appReviews, guards: needs.guards })
}, { name: 'app-reviews' })
