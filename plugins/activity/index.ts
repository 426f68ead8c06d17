import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import activityRoutes from './routes.ts'
import { startActivity, type Activity, type ActivityNeeds } from './service.ts'

export type { Activity, ActivityNeeds }

/**
 * The business's activity log, read (DESIGN §24). Every capability records its changes with
 * server/activity.ts in its own transaction; this one only shows them, at /merchant/activity.
 */
export default fp<CapabilityOptions<ActivityNeeds, Activity>>(async function activityCapability (fastify, { expose, guards }) {
  const activity = startActivity(fastify)
  expose(activity)
  await fastify.register(activityRoutes, { prefix: PREFIX.merchant, activity, guards })
}, { name: 'activity' })
