import { Type } from '@sinclair/typebox'
import { PaginationQuery } from '../../server/schemas.ts'
import { DELIVERY_STATUSES } from '../../server/db/schema/index.ts'
import { HOOK_POINTS } from '../apps/manifest/schemas.ts'

const Day = Type.String({ format: 'date', examples: ['2025-01-31'] })

export const AnalyticsSchema = Type.Object({
  totalInstalls: Type.Integer({ description: 'Installations ever made, test installs excluded' }),
  activeInstalls: Type.Integer(),
  webhookSuccessRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'Succeeded / finished deliveries of the last 30 days; null without any' }),
  averageWebhookLatencyMs: Type.Union([Type.Integer(), Type.Null()], { description: 'Mean attempt duration of the last 30 days; null without any' }),
  installTrend: Type.Array(Type.Object({ date: Day, installs: Type.Integer(), uninstalls: Type.Integer() }), { minItems: 30, maxItems: 30, description: '30 UTC days, oldest first, zero-filled' }),
  webhookDeliveries: Type.Array(Type.Object({ date: Day, succeeded: Type.Integer(), failed: Type.Integer() }), { minItems: 30, maxItems: 30, description: '30 UTC days, oldest first, zero-filled' })
}, { title: 'AppAnalytics' })

export const AppDeliveryQuery = Type.Object({
  ...PaginationQuery().properties,
  status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))),
  event: Type.Optional(Type.String({ minLength: 1, maxLength: 64 }))
})

export const HookCallQuery = Type.Object({
  ...PaginationQuery().properties,
  hookPoint: Type.Optional(Type.Union(HOOK_POINTS.map((h) => Type.Literal(h)))),
  success: Type.Optional(Type.Boolean())
})

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()])
export const HookCallSchema = Type.Object({
  id: Type.String(),
  installationId: Type.String(),
  businessId: Type.String(),
  hookPoint: Type.String(),
  url: Type.String(),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
  success: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'HookCall' })
