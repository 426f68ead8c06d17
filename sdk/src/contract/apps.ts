import { Type, type Static } from '@sinclair/typebox'
import { ApiVersionSchema } from './api-version-names.ts'
import { CategorySchema, EventNameValue, ScopeValue, SignatureSchemeSchema, StringEnum } from './schemas.ts'
import { appExample } from './examples.ts'
import { APP_STATUSES, Iso } from './resources.ts'
import { PricingSchema } from './billing.ts'

/**
 * The app as its developer sees it and as the marketplace lists it. Apart from resources.ts because
 * both carry the app's pricing (billing.ts, DESIGN §23), and billing.ts imports resources.ts.
 */

const ApprovedPricing = Type.Union([PricingSchema, Type.Null()], { description: 'The pricing as last approved: what the listing and the consent screen show, and what production installs may charge; null until the first approval' })

export const AppSchema = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  category: CategorySchema,
  scopes: Type.Array(ScopeValue),
  approvedScopes: Type.Array(ScopeValue, { description: 'Scopes approved in the last review' }),
  // as edited (DESIGN §23): on a published app a change waits for a review (the component's title is Pricing, so the description lives here)
  pricing: PricingSchema,
  approvedPricing: ApprovedPricing,
  billingCurrency: Type.String({ pattern: '^[A-Z]{3}$', description: 'The platform\'s BILLING_CURRENCY: every plan\'s price and usage cap must be in it', examples: ['USD'] }),
  redirectUrl: Type.String(),
  appUrl: Type.Union([Type.String(), Type.Null()], { description: 'Install entry and home: the listing’s Install button goes here' }),
  webhookUrl: Type.Union([Type.String(), Type.Null()]),
  webhookEvents: Type.Array(EventNameValue),
  webhookSignatureScheme: SignatureSchemeSchema,
  apiVersion: Type.Union([ApiVersionSchema, Type.Null()], { description: 'The API version its new installations pin to; null: 2026-11, the spec\'s shapes (DESIGN §22)' }),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  screenshots: Type.Array(Type.String()),
  version: Type.String(),
  status: StringEnum(APP_STATUSES),
  isPublished: Type.Boolean(),
  reviewNotes: Type.Union([Type.String(), Type.Null()]),
  changesRequested: Type.Boolean({ description: 'The last review asked for changes (reviewNotes says which) and the app was not submitted since' }),
  manifest: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' })
}, { title: 'App', examples: [appExample] })
export type App = Static<typeof AppSchema>

/** An app's rating on its listing (DESIGN §24): hidden reviews left out; average rounded to one decimal, null without reviews. */
export const AppRatingSchema = Type.Object({
  average: Type.Union([Type.Number(), Type.Null()], { description: 'Mean of the visible ratings, one decimal; null when there is none' }),
  count: Type.Integer({ description: 'Visible reviews' }),
  distribution: Type.Object({ 1: Type.Integer(), 2: Type.Integer(), 3: Type.Integer(), 4: Type.Integer(), 5: Type.Integer() }, { description: 'Visible reviews per star' })
}, { title: 'AppRating' })
export type AppRating = Static<typeof AppRatingSchema>

/** The developer's answer to a business's review of their app: one per review. */
export const AppReviewReplySchema = Type.Object({ body: Type.String(), createdAt: Iso }, { title: 'AppReviewReply' })

/** A business's review of an app, as the marketplace shows it. */
export const AppReviewSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  body: Type.String(),
  createdAt: Iso,
  updatedAt: Iso,
  reply: Type.Union([AppReviewReplySchema, Type.Null()])
}, { title: 'AppReview' })
export type AppReview = Static<typeof AppReviewSchema>

export const AppListingSchema = Type.Object({
  id: Type.String(),
  clientId: Type.String({ description: 'Public OAuth client id, to start an install' }),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  category: Type.String(),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  screenshots: Type.Array(Type.String()),
  scopes: Type.Array(ScopeValue, { description: 'The approved scopes' }),
  // the approved plans; no plans: the app is free
  pricing: PricingSchema,
  version: Type.String(),
  developerName: Type.String(),
  installCount: Type.Integer({ description: 'Active installs, test installs excluded' }),
  rating: AppRatingSchema,
  publishedAt: Type.Union([Iso, Type.Null()]),
  appUrl: Type.Union([Type.String(), Type.Null()], { description: 'Install entry: the Install button sends the merchant to appUrl?businessId=<id>&business=<slug>; null when the app has none' })
}, { title: 'AppListing' })
export type AppListing = Static<typeof AppListingSchema>
