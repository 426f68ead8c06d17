import type { FastifyInstance } from 'fastify'
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../server/db/client.ts'
import type { Clock } from '../../server/clock.ts'
import { newId } from '../../server/db/ids.ts'
import { countRows } from '../../server/db/rows.ts'
import { pageWindow } from '../../server/schemas.ts'
import { appReviews } from '../../server/db/schema/index.ts'
import type { AppRating, AppReview } from '../../sdk/src/contract/index.ts'
import type { Apps } from '../apps/service.ts'
import type { Guards } from '../auth/guards.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Installations } from '../installations/service.ts'
import { conflict, forbidden, notFound } from './errors.ts'
import type { AppReviewBody, AppReviewWithBusiness, ManagedAppReview, PublicReviewsQueryType } from './schemas.ts'

/** An installation uninstalled this long ago no longer entitles its business to review the app (DESIGN §24). */
export const UNINSTALLED_GRACE_MS = 90 * 86_400_000
const HOUR_MS = 3_600_000

/** What app reviews need of the others: the business's real installations, its name, the developer's ownership, the session guards. */
export interface AppReviewsNeeds {
  installations: Pick<Installations, 'realInstallsOf'>
  commerce: Pick<Commerce, 'businessNamesOf'>
  apps: Pick<Apps, 'ownedApp'>
  guards: Pick<Guards, 'requireRole' | 'requireMerchant'>
}

interface AppReviewsContext {
  db: Executor
  clock: Clock
  /** APP_REVIEW_MIN_INSTALL_HOURS, in ms. */
  minInstallMs: number
  installations: AppReviewsNeeds['installations']
  commerce: AppReviewsNeeds['commerce']
}

type Row = typeof appReviews.$inferSelect
type PageQuery = { page?: number, limit?: number }

const publicReview = (row: Row): AppReview => ({
  id: row.id,
  appId: row.appId,
  rating: row.rating,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  reply: row.replyBody === null || row.replyCreatedAt === null ? null : { body: row.replyBody, createdAt: row.replyCreatedAt.toISOString() }
})

const managedReview = (row: Row): ManagedAppReview => ({
  ...publicReview(row),
  hidden: row.hiddenAt === null ? null : { at: row.hiddenAt.toISOString(), reason: row.hiddenReason ?? '' }
})

/** No review yet: a rating of nothing. */
export const emptyRating = (): AppRating => ({ average: null, count: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } })

/**
 * May the business review the app now? One of its real (not test) installations has existed for the
 * minimum age (up to its uninstall, if uninstalled) and is installed, or was uninstalled less than 90 days ago.
 */
export function mayReview (installs: Array<{ installedAt: Date, uninstalledAt: Date | null }>, nowMs: number, minInstallMs: number): boolean {
  return installs.some(({ installedAt, uninstalledAt }) => {
    const endMs = uninstalledAt?.getTime() ?? nowMs
    return nowMs - endMs < UNINSTALLED_GRACE_MS && endMs - installedAt.getTime() >= minInstallMs
  })
}

async function page (context: AppReviewsContext, where: SQL | undefined, order: SQL[], query: PageQuery) {
  const { page, limit, offset } = pageWindow(query)
  const [rows, total] = await Promise.all([
    context.db.select().from(appReviews).where(where).orderBy(...order).limit(limit).offset(offset),
    countRows(context.db, appReviews, where)
  ])
  return { rows, total, page, limit }
}

export function createAppReviews (context: AppReviewsContext) {
  const { db, clock } = context
  const ofBusiness = (businessId: string, appId: string) => and(eq(appReviews.appId, appId), eq(appReviews.businessId, businessId))

  return {
    /** The business's review of the app; `review: null` when it has none. */
    async mine (businessId: string, appId: string): Promise<{ review: ManagedAppReview | null }> {
      const [row] = await db.select().from(appReviews).where(ofBusiness(businessId, appId)).limit(1)
      return { review: row === undefined ? null : managedReview(row) }
    },

    /** Writes or edits the business's review: 403 review_not_allowed unless a real installation entitles it. */
    async put (businessId: string, authorId: string, appId: string, input: AppReviewBody): Promise<ManagedAppReview> {
      const now = clock.now()
      if (!mayReview(await context.installations.realInstallsOf(appId, businessId), now.getTime(), context.minInstallMs)) {
        throw forbidden('review_not_allowed', 'Only a business whose real installation of the app is old enough may review it')
      }
      const body = input.body ?? ''
      const [row] = await db.insert(appReviews).values({ id: newId('arv'), appId, businessId, authorId, rating: input.rating, body, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [appReviews.appId, appReviews.businessId], set: { authorId, rating: input.rating, body, updatedAt: now } })
        .returning()
      return managedReview(row)
    },

    /** Withdraws the business's review (with its answer); 404 when it has none. */
    async withdraw (businessId: string, appId: string): Promise<void> {
      const deleted = await db.delete(appReviews).where(ofBusiness(businessId, appId)).returning({ id: appReviews.id })
      if (deleted.length === 0) throw notFound('app_review_not_found', 'Review')
    },

    /** The marketplace's list: visible reviews only, newest or highest first. */
    async publicList (appId: string, query: PublicReviewsQueryType) {
      const order = query.sort === 'rating'
        ? [desc(appReviews.rating), desc(appReviews.createdAt), desc(appReviews.id)]
        : [desc(appReviews.createdAt), desc(appReviews.id)]
      const { rows, ...rest } = await page(context, and(eq(appReviews.appId, appId), isNull(appReviews.hiddenAt)), order, query)
      return { data: rows.map(publicReview), ...rest }
    },

    /** The developer console's and the reviewer's list: every review of the app with its business's name, hidden ones marked, newest first. */
    async developerList (appId: string, query: PageQuery) {
      const { rows, ...rest } = await page(context, eq(appReviews.appId, appId), [desc(appReviews.createdAt), desc(appReviews.id)], query)
      const names = await context.commerce.businessNamesOf(rows.map((row) => row.businessId))
      const data: AppReviewWithBusiness[] = rows.map((row) => ({ ...managedReview(row), businessName: names.get(row.businessId) ?? null }))
      return { data, ...rest }
    },

    /** The developer's single answer: 404 for a review of another app, 409 reply_exists for a second one. */
    async reply (appId: string, id: string, body: string): Promise<ManagedAppReview> {
      const [row] = await db.update(appReviews).set({ replyBody: body, replyCreatedAt: clock.now() })
        .where(and(eq(appReviews.id, id), eq(appReviews.appId, appId), isNull(appReviews.replyBody))).returning()
      if (row !== undefined) return managedReview(row)
      const [existing] = await db.select({ id: appReviews.id }).from(appReviews).where(and(eq(appReviews.id, id), eq(appReviews.appId, appId))).limit(1)
      if (existing === undefined) throw notFound('app_review_not_found', 'Review')
      throw conflict('reply_exists', 'This review already has an answer')
    },

    /** A reviewer hides an abusive review with a reason: it leaves the public list and the average. Hiding again updates the reason. */
    async hide (id: string, reviewerId: string, reason: string): Promise<ManagedAppReview> {
      const [row] = await db.update(appReviews).set({ hiddenAt: sql`coalesce(${appReviews.hiddenAt}, ${clock.now().toISOString()}::timestamptz)`, hiddenReason: reason, hiddenBy: reviewerId })
        .where(eq(appReviews.id, id)).returning()
      if (row === undefined) throw notFound('app_review_not_found', 'Review')
      return managedReview(row)
    },

    /** The listing's ratings per app: visible reviews only, the average rounded to one decimal. */
    async ratingsOf (appIds: string[]): Promise<Map<string, AppRating>> {
      const ratings = new Map<string, AppRating>()
      if (appIds.length === 0) return ratings
      const rows = await db.select({ appId: appReviews.appId, rating: appReviews.rating, n: sql<number>`count(*)::int` }).from(appReviews)
        .where(and(inArray(appReviews.appId, appIds), isNull(appReviews.hiddenAt))).groupBy(appReviews.appId, appReviews.rating)
      const sums = new Map<string, number>()
      for (const row of rows) {
        const rating = ratings.get(row.appId) ?? emptyRating()
        rating.distribution[row.rating as 1 | 2 | 3 | 4 | 5] += row.n
        rating.count += row.n
        sums.set(row.appId, (sums.get(row.appId) ?? 0) + row.rating * row.n)
        ratings.set(row.appId, rating)
      }
      for (const [appId, rating] of ratings) rating.average = Math.round(((sums.get(appId) ?? 0) / rating.count) * 10) / 10
      return ratings
    }
  }
}

/** App reviews' port: the marketplace reads the public list and the ratings. */
export type AppReviews = ReturnType<typeof createAppReviews>

export function startAppReviews (fastify: FastifyInstance, { installations, commerce }: AppReviewsNeeds): AppReviews {
  return createAppReviews({ db: fastify.db, clock: fastify.clock, minInstallMs: fastify.config.appReviewMinInstallHours * HOUR_MS, installations, commerce })
}
