import { Type, type Static } from '@sinclair/typebox'
import { AppReviewSchema, Iso } from '../../sdk/src/contract/index.ts'
import { PaginationQuery } from '../../server/schemas.ts'

/** The longest review text a business may write (DESIGN §24). */
export const REVIEW_BODY_MAX = 2000
/** The longest answer and hiding reason. */
const REPLY_BODY_MAX = 2000
const HIDE_REASON_MAX = 500

/** Text with something other than spaces in it. */
const NOT_BLANK = '\\S'

export const AppReviewBodySchema = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5, description: 'Stars, 1 to 5' }),
  body: Type.Optional(Type.String({ maxLength: REVIEW_BODY_MAX, default: '', description: 'At most 2 000 characters' }))
}, { additionalProperties: false })
export type AppReviewBody = Static<typeof AppReviewBodySchema>

export const AppReviewReplyBodySchema = Type.Object({
  body: Type.String({ minLength: 1, maxLength: REPLY_BODY_MAX, pattern: NOT_BLANK })
}, { additionalProperties: false })

export const HideAppReviewBodySchema = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: HIDE_REASON_MAX, pattern: NOT_BLANK, description: 'Why the review is hidden (kept, shown to its business and the developer)' })
}, { additionalProperties: false })

/** A review as its business, the app's developer and a reviewer see it: with its hiding, if any. */
export const ManagedAppReviewSchema = Type.Intersect([AppReviewSchema, Type.Object({
  hidden: Type.Union([Type.Object({ at: Iso, reason: Type.String() }), Type.Null()], { description: 'Set by a reviewer: the review leaves the public list and the average' })
})], { title: 'ManagedAppReview' })
export type ManagedAppReview = Static<typeof ManagedAppReviewSchema>

/** A review in the developer's and the reviewer's lists: with the name of the business that wrote it. */
export const AppReviewWithBusinessSchema = Type.Intersect([ManagedAppReviewSchema, Type.Object({
  businessName: Type.Union([Type.String(), Type.Null()], { description: 'The reviewing business\'s name; null once the business is deleted' })
})], { title: 'AppReviewWithBusiness' })
export type AppReviewWithBusiness = Static<typeof AppReviewWithBusinessSchema>

export const AppIdParams = Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }) })
export const AppReviewParams = Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ minLength: 1, maxLength: 64 }) })
export const ReviewIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

export const APP_REVIEW_SORTS = ['recent', 'rating'] as const
export const PublicReviewsQuery = Type.Intersect([
  PaginationQuery(),
  Type.Object({ sort: Type.Optional(Type.Union(APP_REVIEW_SORTS.map((sort) => Type.Literal(sort)), { default: 'recent', description: 'recent: newest first; rating: highest first' })) })
])
export type PublicReviewsQueryType = Static<typeof PublicReviewsQuery>
