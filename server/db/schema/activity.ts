import { pgTable, text, timestamp, jsonb, index } from 'drizzle-orm/pg-core'
import { businesses } from './commerce.ts'
import { ACTIVITY_RESOURCES, ACTOR_TYPES } from '../../../sdk/src/contract/activity.ts'

// the contract's lists (sdk/src/contract), which the admin's screens share
export { ACTIVITY_RESOURCES, ACTOR_TYPES, type ActivityResource, type ActorType } from '../../../sdk/src/contract/activity.ts'

/**
 * The business's activity log (DESIGN §24): each change to its orders, products, reviews, pages,
 * settings, apps and charges with its actor, written in the change's own transaction. Apps cannot write it.
 */
export const activityEntries = pgTable('activity_entries', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  actorType: text('actor_type', { enum: ACTOR_TYPES }).notNull(),
  /** The user, installation or customer (email) id; null for the platform. */
  actorId: text('actor_id'),
  actorName: text('actor_name').notNull(),
  action: text('action').notNull(),
  resourceType: text('resource_type', { enum: ACTIVITY_RESOURCES }).notNull(),
  resourceId: text('resource_id').notNull(),
  changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({})
}, (t) => [
  index('activity_entries_business_idx').on(t.businessId, t.at, t.id),
  index('activity_entries_resource_idx').on(t.businessId, t.resourceType, t.resourceId, t.at),
  index('activity_entries_actor_idx').on(t.businessId, t.actorType, t.at)
])
