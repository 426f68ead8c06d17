import { Type, type Static } from '@sinclair/typebox'
import { ACTIVITY_RESOURCES, ACTOR_TYPES } from '../../server/activity.ts'

const ID = '[A-Za-z0-9_-]{1,64}'

/** `?actor&resource&before&limit` (DESIGN §24): `resource` is a type, or a type and one id (`order:ord_…`). */
export const ActivityQuery = Type.Object({
  actor: Type.Optional(Type.Union(ACTOR_TYPES.map((type) => Type.Literal(type)), { description: 'Only the entries of this kind of actor' })),
  resource: Type.Optional(Type.String({
    pattern: `^(${ACTIVITY_RESOURCES.join('|')})(:${ID})?$`,
    description: `A resource type (${ACTIVITY_RESOURCES.join(', ')}), or one resource as \`<type>:<id>\` (an order's timeline: \`order:ord_…\`); an id of none of the business's resources gives an empty list`,
    examples: ['order', 'order:ord_3k9q2m']
  })),
  before: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Keyset paging: the `nextCursor` of the page before (400 `cursor_invalid` for anything else)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, clampedMaximum: 100, default: 50, description: 'Entries per page (default 50, at most 100; larger values are clamped)' }))
})
export type ActivityQueryType = Static<typeof ActivityQuery>

export const ActivityEntrySchema = Type.Object({
  id: Type.String({ examples: ['act_5m2k8q'] }),
  at: Type.String({ format: 'date-time', description: 'When the change committed (its transaction\'s time)' }),
  actor: Type.Object({
    type: Type.Union(ACTOR_TYPES.map((type) => Type.Literal(type)), { description: 'customer (the storefront\'s), staff (a signed-in user of the business), app (an installation, through the App API), platform (jobs: a payment expiring, a charge lapsing)' }),
    id: Type.Union([Type.String(), Type.Null()], { description: 'The user id (staff), installation id (app) or the customer\'s email; null for the platform or a customer without one' }),
    name: Type.String({ description: 'The staff member\'s name, the app\'s name or the customer\'s, as they were at the change; "Platform"' })
  }, { additionalProperties: false }),
  action: Type.String({ description: '`<resource>.<verb>`: order.created, order.status_changed, order.payment_completed, product.updated, app.installed, charge.approved, …', examples: ['order.status_changed'] }),
  resource: Type.Object({
    type: Type.Union(ACTIVITY_RESOURCES.map((type) => Type.Literal(type))),
    id: Type.String({ description: 'The order, product, review, page, app or charge id; the business id for settings' })
  }, { additionalProperties: false }),
  changes: Type.Record(Type.String(), Type.Unknown(), { description: 'What changed: `{field: {from, to}}` for an edit, the new resource\'s main fields for a creation', examples: [{ status: { from: 'PENDING', to: 'CONFIRMED' } }] })
}, { title: 'ActivityEntry', additionalProperties: false })
export type ActivityEntryType = Static<typeof ActivityEntrySchema>

export const ActivityPageSchema = Type.Object({
  data: Type.Array(ActivityEntrySchema, { description: 'Newest first' }),
  limit: Type.Integer({ description: 'The page size used (a larger `limit` is clamped to 100)' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `before` for the next (older) page; null on the last' })
}, { title: 'ActivityPage', additionalProperties: false })
