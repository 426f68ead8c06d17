import type { Permission } from './staff-types.ts'

/** Each admin screen's path and the permission it needs (DESIGN §24); the home needs none. */
const SCREENS: Array<[prefix: string, permission: Permission]> = [
  ['/admin/orders', 'orders'],
  ['/admin/products', 'products'],
  ['/admin/reviews', 'reviews'],
  ['/admin/pages', 'pages'],
  ['/admin/settings', 'settings'],
  ['/admin/staff', 'settings'],
  ['/admin/apps', 'apps'],
  ['/admin/billing', 'billing'],
  ['/admin/charges', 'billing']
]

/** The permission the admin screen at `path` needs, or null when any member may open it. */
export function permissionForPath (path: string): Permission | null {
  const found = SCREENS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))
  return found === undefined ? null : found[1]
}
