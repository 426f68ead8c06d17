import { Type, type Static, type TInteger, type TSchema } from '@sinclair/typebox'
import { HOOK_POINTS } from './events.ts'
import { StringEnum } from './schemas.ts'
import { DeliverySchema, DeliveryStatus, Iso, WebhookRegistrationSchema } from './resources.ts'

/**
 * What the developer console reads (DESIGN §16 "Console routes"): analytics, the delivery and hook
 * call logs with their detail, the app's registrations and the live tail's events. The admin UI types
 * its screens with these, the server validates and documents its answers with them.
 */

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()])
const Day = Type.String({ format: 'date', examples: ['2025-01-31'] })

export const ANALYTICS_PERIODS = [7, 30, 90] as const
/** live: published installs (test installs left out, as the spec says); sandbox: the developer's test installs only. */
export const ANALYTICS_ENVIRONMENTS = ['live', 'sandbox'] as const
export const HookPointSchema = StringEnum(HOOK_POINTS, { title: 'HookPoint' })

export const AnalyticsQuerySchema = Type.Object({
  days: Type.Optional(Type.Union(ANALYTICS_PERIODS.map((d) => Type.Literal(d)), { default: 30, description: 'Period in UTC days, today included' })),
  environment: Type.Optional(Type.Union(ANALYTICS_ENVIRONMENTS.map((e) => Type.Literal(e)), { default: 'live', description: 'live leaves test installs out; sandbox counts only them' }))
}, { additionalProperties: false })

function Series<K extends string> (fields: Record<K, string>) {
  const counts = {} as Record<K, TInteger>
  for (const key of Object.keys(fields) as K[]) counts[key] = Type.Integer({ minimum: 0, description: fields[key] })
  return Type.Array(Type.Object({ date: Day, ...counts }), { minItems: 7, maxItems: 90, description: 'One entry per UTC day of the period, oldest first, zero-filled' })
}

export const AppAnalyticsSchema = Type.Object({
  days: Type.Integer({ description: 'The period' }),
  environment: StringEnum(ANALYTICS_ENVIRONMENTS),
  totalInstalls: Type.Integer({ description: 'Installations ever made (live: test installs excluded)' }),
  activeInstalls: Type.Integer(),
  webhookSuccessRate: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], { description: 'Succeeded deliveries as a percentage (0–100, two decimals) of the finished deliveries of the period; null without any' }),
  averageWebhookLatencyMs: Type.Union([Type.Integer(), Type.Null()], { description: 'Mean attempt duration of the period; null without any' }),
  installTrend: Series({ installs: 'Installs that day', uninstalls: 'Uninstalls that day' }),
  webhookDeliveries: Series({ succeeded: 'Deliveries that succeeded that day', failed: 'Deliveries that failed for good that day' }),
  apiRequests: Series({ ok: '2xx', redirect: '3xx', clientError: '4xx other than 429', rateLimited: '429', serverError: '5xx' }),
  hookCalls: Type.Array(Type.Object({
    hookPoint: HookPointSchema,
    succeeded: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    daily: Series({ succeeded: 'Calls answered in the right shape', failed: 'Refused calls (timeout, status, shape)' })
  }), { description: 'Every hook point, in the contract order' })
}, { title: 'AppAnalytics' })
export type AppAnalytics = Static<typeof AppAnalyticsSchema>

const StoreName = Nullable(Type.String({ description: "The store's name (the merchant's business), so the console names stores instead of ids; null when the business is gone" }))

/** A page of a console log: the list envelope, and the cursor of the page after it (keyset paging). */
export const LogPage = <T extends TSchema>(item: T) => Type.Object({
  data: Type.Array(item),
  total: Type.Integer({ description: 'Matching items, counted up to 10 000 (a bigger log says 10 000)' }),
  page: Type.Integer(),
  limit: Type.Integer({ description: 'The page size used' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `before` for the next page; null on the last page' })
})

/** A registration as the console lists it: on which store and installation, sandbox or not. */
export const ConsoleWebhookSchema = Type.Intersect([WebhookRegistrationSchema, Type.Object({
  installationId: Type.String(),
  businessId: Type.String(),
  storeName: StoreName,
  isTestInstall: Type.Boolean(),
  installationActive: Type.Boolean({ description: 'false once the app was uninstalled there' })
})], { title: 'ConsoleWebhook' })
export type ConsoleWebhook = Static<typeof ConsoleWebhookSchema>

/** Registrations switched off by an uninstall: kept for their delivery log, listed only when asked for. */
export const UNINSTALLED_FILTERS = ['include', 'exclude', 'only'] as const
export const ConsoleWebhookQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 20, clampedMaximum: 100, description: 'Items per page (default 20, at most 100; larger values are clamped)' })),
  uninstalled: Type.Optional(StringEnum(UNINSTALLED_FILTERS, {
    default: 'include',
    description: 'Registrations switched off because the app was uninstalled from that store: `include` (default) lists them too, `exclude` leaves them out, `only` lists just them'
  }))
}, { additionalProperties: false })
export type ConsoleWebhookQuery = Static<typeof ConsoleWebhookQuerySchema>

export const ReEnableWebhookBodySchema = Type.Object({
  isActive: Type.Literal(true, { description: 'Re-enables an auto-disabled registration and resets its failure count' })
}, { title: 'ReEnableWebhookBody', additionalProperties: false })

export const ConsoleDeliveryQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 20, clampedMaximum: 100, description: 'Items per page (default 20, at most 100; larger values are clamped)' })),
  status: Type.Optional(DeliveryStatus),
  event: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  webhookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'One registration' })),
  before: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Keyset paging: the `nextCursor` of the page before; then `page` only numbers the page (no offset is read), and a deep page costs what the first does' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before' }))
}, { additionalProperties: false })

export const AttemptDetailSchema = Type.Object({
  attempt: Type.Integer(),
  statusCode: Nullable(Type.Integer({ description: 'null when no answer came' })),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
  responseSnippet: Nullable(Type.String({ description: 'First 1 KB of the answer (DESIGN §9)' })),
  requestHeaders: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], { description: 'As sent, the signature included; null for attempts logged before headers were kept' }),
  nextRetryAt: Nullable(Type.String({ format: 'date-time', description: 'When this failed attempt was to be retried; null when none was scheduled' })),
  relayed: Type.Boolean({ description: 'Answered through the developer\'s `app-platform listen` session instead of the network (DESIGN §19)' }),
  createdAt: Iso
}, { title: 'AttemptDetail' })

export const DeliveryDetailSchema = Type.Intersect([DeliverySchema, Type.Object({
  eventId: Nullable(Type.String({ description: 'The outbox event; null for webhook.test' })),
  webhookUrl: Nullable(Type.String({ description: 'null when the registration was deleted' })),
  storeName: StoreName,
  isTestInstall: Type.Boolean(),
  requestBody: Type.String({ description: 'The exact body every attempt sent (the envelope)' }),
  attempts: Type.Array(AttemptDetailSchema)
})], { title: 'DeliveryDetail' })
export type DeliveryDetail = Static<typeof DeliveryDetailSchema>

export const HookCallQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 20, clampedMaximum: 100, description: 'Items per page (default 20, at most 100; larger values are clamped)' })),
  hookPoint: Type.Optional(HookPointSchema),
  success: Type.Optional(Type.Boolean({ description: 'Outcome: true answered in the right shape, false refused' })),
  before: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Keyset paging: the `nextCursor` of the page before; then `page` only numbers the page (no offset is read), and a deep page costs what the first does' })),
}, { additionalProperties: false })

export const HookCallSchema = Type.Object({
  id: Type.String(),
  installationId: Type.String(),
  businessId: Type.String(),
  hookPoint: Type.String(),
  url: Type.String(),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: Nullable(Type.String({ description: 'Why the answer was refused: schema error, timeout, status' })),
  success: Type.Boolean(),
  failurePolicy: Type.Union([StringEnum(['open', 'closed'] as const), Type.Null()], { description: "The manifest hook's failurePolicy; null for calls logged before it was kept" }),
  relayed: Type.Boolean({ description: 'Answered through the developer\'s `app-platform listen` session instead of the network (DESIGN §19)' }),
  createdAt: Iso
}, { title: 'HookCall' })
export type HookCall = Static<typeof HookCallSchema>

export const HookCallDetailSchema = Type.Intersect([HookCallSchema, Type.Object({
  storeName: StoreName,
  requestBody: Nullable(Type.String({ description: 'The envelope exactly as sent; null for calls logged before bodies were kept' })),
  answer: Nullable(Type.String({ description: 'The first 4 KB of the answer as received' })),
  policyApplied: Nullable(Type.String({ description: 'What the checkout did because of the failure (DESIGN §10); null on success' }))
})], { title: 'HookCallDetail' })
export type HookCallDetail = Static<typeof HookCallDetailSchema>

export const ReplayPreviewQuerySchema = Type.Object({
  dryRun: Type.Optional(Type.Boolean({ description: 'Count what the call would queue; nothing is sent' }))
}, { additionalProperties: false })

/** One event of the live tail (GET /developer/apps/:appId/live, `data:` of a server-sent event). */
export const LiveEventSchema = Type.Union([
  Type.Object({
    type: Type.Literal('delivery'),
    id: Type.String({ description: 'The delivery id' }),
    installationId: Type.String(),
    webhookId: Type.String(),
    event: Type.String(),
    status: DeliveryStatus,
    attempt: Type.Integer(),
    statusCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    durationMs: Type.Integer(),
    relayed: Type.Optional(Type.Boolean({ description: 'Answered through `app-platform listen`' })),
    at: Iso
  }, { title: 'LiveDeliveryEvent' }),
  Type.Object({
    type: Type.Literal('hookCall'),
    id: Type.String({ description: 'The hook call id' }),
    installationId: Type.String(),
    hookPoint: Type.String(),
    success: Type.Boolean(),
    statusCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    durationMs: Type.Integer(),
    relayed: Type.Optional(Type.Boolean({ description: 'Answered through `app-platform listen`' })),
    at: Iso
  }, { title: 'LiveHookCallEvent' })
], { title: 'LiveEvent' })
export type LiveEvent = Static<typeof LiveEventSchema>
