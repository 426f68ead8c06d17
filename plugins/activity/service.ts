import type { FastifyInstance } from 'fastify'
import { activityPage, type ActivityResource, type ActorType } from '../../server/activity.ts'
import type { Permission } from '../../sdk/src/contract/staff.ts'
import { badRequest } from '../../server/http-errors.ts'
import type { Guards } from '../auth/guards.ts'
import type { ActivityQueryType } from './schemas.ts'

export interface ActivityNeeds { guards: Guards }

/** The permission each resource type's entries need (DESIGN §24): a staff member reads the log of what they may use. */
const RESOURCE_PERMISSIONS: Record<ActivityResource, Permission> = {
  order: 'orders', product: 'products', review: 'reviews', page: 'pages', settings: 'settings', app: 'apps', charge: 'billing'
}

/** The resource types whose entries a reader with these permissions sees; every type for the owner (undefined). */
export function resourcesFor (permissions: readonly Permission[] | undefined): ActivityResource[] | undefined {
  if (permissions === undefined) return undefined
  return (Object.keys(RESOURCE_PERMISSIONS) as ActivityResource[]).filter((type) => permissions.includes(RESOURCE_PERMISSIONS[type]))
}

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 100

/** What the activity routes read: a business's log, a keyset page at a time. Nothing writes through here. */
export function startActivity (fastify: FastifyInstance) {
  return {
    async page (businessId: string, query: ActivityQueryType, permissions?: readonly Permission[]) {
      const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT)
      const [type, id] = query.resource === undefined ? [] : query.resource.split(':') as [ActivityResource, string | undefined]
      const page = await activityPage(fastify.db, businessId, {
        actor: query.actor as ActorType | undefined,
        resource: type === undefined ? undefined : { type, id },
        visible: resourcesFor(permissions),
        before: query.before,
        limit
      })
      if (page === null) throw badRequest('cursor_invalid', 'before is not a cursor this list gave out (use its nextCursor)')
      // DESIGN §5: the envelope says the limit used
      return { ...page, limit }
    }
  }
}

export type Activity = ReturnType<typeof startActivity>
