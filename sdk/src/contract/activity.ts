/** Who made a change in a business's activity log (DESIGN §24). */
export const ACTOR_TYPES = ['customer', 'staff', 'app', 'platform'] as const
export type ActorType = typeof ACTOR_TYPES[number]

/** What an activity entry is about. */
export const ACTIVITY_RESOURCES = ['order', 'product', 'review', 'page', 'settings', 'app', 'charge'] as const
export type ActivityResource = typeof ACTIVITY_RESOURCES[number]
