/** Staff (DESIGN §24): what a business member may use, and the staff screen's answers. */

import { PERMISSIONS, type BusinessRole, type Permission } from '../../../sdk/src/contract/staff.ts'

// the contract's lists (sdk/src/contract), as the screens use them
export { PERMISSIONS }
export type { BusinessRole, Permission }

/** Each permission in the words the screens use: its name and what it opens. */
export const PERMISSION_TEXT: Record<Permission, { label: string, opens: string }> = {
  orders: { label: 'Orders', opens: 'orders and sales figures' },
  products: { label: 'Products', opens: 'products and promo codes' },
  reviews: { label: 'Reviews', opens: 'customer reviews' },
  pages: { label: 'Pages', opens: 'store pages and their blocks' },
  settings: { label: 'Settings', opens: 'business settings and staff' },
  apps: { label: 'Apps', opens: 'installed apps, their pages and settings' },
  billing: { label: 'Billing', opens: 'app charges and invoices' }
}

/** The session's business as the auth answers carry it: the signed-in user's role and permissions there. */
export interface SessionBusiness { id: string, name: string, slug: string, isSandbox: boolean, role: BusinessRole, permissions: string[] }

export interface StaffMember { memberId: string | null, userId: string, email: string, name: string, role: BusinessRole, permissions: string[] }
export interface StaffInvitation { id: string, email: string, permissions: string[], expiresAt: string, link: string }
export interface StaffList { members: StaffMember[], invitations: StaffInvitation[] }

/** GET /auth/invitations/:token: what the link offers, readable before signing in. */
export interface InvitationPreview { businessName: string, email: string, permissions: string[], expiresAt: string }

/** The permissions in the screens' order, as words ("Orders, Products"). */
export function permissionList (permissions: readonly string[]): string {
  const known = PERMISSIONS.filter((p) => permissions.includes(p))
  return known.length === 0 ? 'None' : known.map((p) => PERMISSION_TEXT[p].label).join(', ')
}
