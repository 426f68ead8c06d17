import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { activityEntries, type ActivityResource, type ActorType } from './db/schema/index.ts'
import type { Executor } from './db/client.ts'
import { newId } from './db/ids.ts'
import { decodeCursor, encodeCursor } from './db/rows.ts'
import { currentActor, type Actor } from './actor.ts'

export { ACTOR_TYPES, ACTIVITY_RESOURCES, type ActorType, type ActivityResource } from './db/schema/index.ts'

/** What changed, field by field: `{ status: { from: 'PENDING', to: 'CONFIRMED' } }`, or the fields a change wrote. */
export type ActivityChanges = Record<string, unknown>

export interface NewActivity {
  businessId: string
  /** `<resource>.<verb>`: `order.created`, `order.status_changed`, `app.installed`, … */
  action: string
  resource: { type: ActivityResource, id: string }
  changes?: ActivityChanges
  /** Who the customer is, when the actor is one (the storefront's): the order's or review's own name and email. */
  customer?: { id: string | null, name: string }
  /**
   * Who acted, when it is not the request's: an OAuth install runs in the app's code exchange, but the
   * staff member who consented installed it.
   */
  actor?: Actor
}

/** The names an entry falls back to when its actor's row is gone (a user deleted, an app's installation erased). */
const FALLBACK_NAMES: Record<ActorType, string> = { customer: 'Customer', staff: 'Staff member', app: 'App', platform: 'Platform' }

/**
 * The actor's display name, resolved in the insert itself (no round trip): a staff member's user name,
 * an app's name through its installation, a customer's given name.
 */
function actorName (type: ActorType, id: string | null, given: string | undefined): SQL {
  if (type === 'staff') return sql`(select name from users where id = ${id})`
  if (type === 'app') return sql`(select a.name from installations i join apps a on a.id = i.app_id where i.id = ${id})`
  return sql`${given ?? null}::text`
}

/**
 * Records a change in the business's activity log (DESIGN §24) inside the caller's transaction, so the
 * entry commits with the change or not at all; the actor is the request's (server/actor.ts). Apps
 * cannot write the log: nothing but the platform's own services calls this.
 */
export async function recordActivity (executor: Executor, input: NewActivity): Promise<void> {
  const actor = input.actor ?? currentActor()
  const customer = actor.type === 'customer' ? input.customer : undefined
  const id = actor.type === 'customer' ? customer?.id ?? actor.id : actor.id
  const given = actor.type === 'customer' ? customer?.name ?? actor.name : actor.name
  await executor.execute(sql`insert into activity_entries (id, business_id, actor_type, actor_id, actor_name, action, resource_type, resource_id, changes)
    values (${newId('act')}, ${input.businessId}, ${actor.type}, ${id === '' ? null : id}, coalesce(nullif(${actorName(actor.type, id, given)}, ''), ${FALLBACK_NAMES[actor.type]}),
      ${input.action}, ${input.resource.type}, ${input.resource.id}, ${JSON.stringify(input.changes ?? {})}::jsonb)`)
}

/** `{ from, to }` of each field whose value differs between `before` and `after` (of the fields `after` names). */
export function changedFields (before: Record<string, unknown>, after: Record<string, unknown>): ActivityChanges {
  const changes: ActivityChanges = {}
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue
    const from = before[field]
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from: from ?? null, to }
  }
  return changes
}

export interface ActivityEntry {
  id: string
  at: string
  actor: { type: ActorType, id: string | null, name: string }
  action: string
  resource: { type: ActivityResource, id: string }
  changes: ActivityChanges
}

export interface ActivityPageRows { data: ActivityEntry[], nextCursor: string | null }

export interface ActivityQuery {
  actor?: ActorType
  resource?: { type: ActivityResource, id?: string }
  /** The resource types the reader may see (a staff member's permissions); all when undefined. */
  visible?: readonly ActivityResource[]
  before?: string
  limit: number
}

/**
 * One keyset page of a business's log, newest first over (at, id): a deep page costs what the first does.
 * Answers null for a cursor that is not one this gave out (the caller's 400).
 */
export async function activityPage (executor: Executor, businessId: string, query: ActivityQuery): Promise<ActivityPageRows | null> {
  const cursor = query.before === undefined ? null : decodeCursor(query.before)
  if (query.before !== undefined && cursor === null) return null
  if (query.visible !== undefined && query.visible.length === 0) return { data: [], nextCursor: null }
  const t = activityEntries
  const where = and(
    eq(t.businessId, businessId),
    query.actor === undefined ? undefined : eq(t.actorType, query.actor),
    query.resource === undefined ? undefined : eq(t.resourceType, query.resource.type),
    query.resource?.id === undefined ? undefined : eq(t.resourceId, query.resource.id),
    query.visible === undefined ? undefined : inArray(t.resourceType, [...query.visible]),
    cursor === null ? undefined : sql`(${t.at}, ${t.id}) < (${cursor[0]}::timestamptz, ${cursor[1]})`
  )
  const found = await executor.select({
    id: t.id, at: t.at, cursorAt: sql<string>`${t.at}::text`, actorType: t.actorType, actorId: t.actorId, actorName: t.actorName,
    action: t.action, resourceType: t.resourceType, resourceId: t.resourceId, changes: t.changes
  }).from(t).where(where).orderBy(desc(t.at), desc(t.id)).limit(query.limit + 1)
  const page = found.slice(0, query.limit)
  const last = page.at(-1)
  return {
    data: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: { type: row.actorType, id: row.actorId, name: row.actorName },
      action: row.action,
      resource: { type: row.resourceType, id: row.resourceId },
      changes: row.changes
    })),
    nextCursor: found.length > query.limit && last !== undefined ? encodeCursor(last.cursorAt, last.id) : null
  }
}
