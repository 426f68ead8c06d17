/**
 * What a business's staff member may use (DESIGN §24); the owner may use everything. Apps see the
 * acting user's role and permissions in the admin page's `service:init` and session token.
 */
export const PERMISSIONS = ['orders', 'products', 'reviews', 'pages', 'settings', 'apps', 'billing'] as const
export type Permission = typeof PERMISSIONS[number]

/** A user's place in a business: its OWNER (the merchant account that created it) or a STAFF member. */
export const BUSINESS_ROLES = ['OWNER', 'STAFF'] as const
export type BusinessRole = typeof BUSINESS_ROLES[number]
