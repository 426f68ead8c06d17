/** The activity log's entries as GET /merchant/activity answers them (DESIGN §24). */
import { ACTIVITY_RESOURCES, ACTOR_TYPES, type ActivityResource, type ActorType } from '../../../sdk/src/contract/activity.ts'

// the contract's lists (sdk/src/contract), as the screens use them
export { ACTIVITY_RESOURCES, ACTOR_TYPES }
export type { ActivityResource, ActorType }

export interface ActivityEntry {
  id: string
  at: string
  actor: { type: ActorType, id: string | null, name: string }
  action: string
  resource: { type: ActivityResource, id: string }
  changes: Record<string, unknown>
}
export interface ActivityPage { data: ActivityEntry[], nextCursor: string | null }

export const ACTOR_LABEL: Record<ActorType, string> = { customer: 'Customer', staff: 'Staff', app: 'App', platform: 'Platform' }
export const RESOURCE_LABEL: Record<ActivityResource, string> = {
  order: 'Orders', product: 'Products', review: 'Reviews', page: 'Pages', settings: 'Settings', app: 'Apps', charge: 'Charges'
}

/** "PENDING" → "pending", "lowStockThreshold" → "low stock threshold". */
const words = (text: string): string => text.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
const fromTo = (value: unknown): { from: unknown, to: unknown } | null =>
  typeof value === 'object' && value !== null && 'to' in value ? value as { from: unknown, to: unknown } : null
const text = (value: unknown): string => typeof value === 'string' ? `“${value}”` : ''

/** The changed fields of an edit, in words: "name, price and stock". */
function fieldList (changes: Record<string, unknown>): string {
  const names = Object.keys(changes).map(words)
  if (names.length === 0) return 'nothing'
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`
}

/** What an entry did, as a sentence without its actor: "moved the order from pending to confirmed". */
export function describeActivity (entry: ActivityEntry): string {
  const c = entry.changes
  const status = fromTo(c.status)
  const payment = fromTo(c.paymentStatus)
  switch (entry.action) {
    case 'order.created': return `placed order #${String(c.orderNumber ?? '')}`.trim()
    case 'order.status_changed': return status === null ? 'changed the order’s status' : `moved the order from ${words(String(status.from))} to ${words(String(status.to))}`
    case 'order.payment_completed': return 'completed the payment'
    case 'order.payment_expired': return 'expired the unpaid payment'
    case 'order.payment_failed': return 'marked the payment failed'
    case 'product.created': return `created the product ${text(c.name)}`.trim()
    case 'product.updated': return `changed the product’s ${fieldList(c)}`
    case 'product.deleted': return `deleted the product ${text(c.name)}`.trim()
    case 'product.image_changed': return 'uploaded a new product picture'
    case 'review.created': return `reviewed a product (${String(c.rating ?? '?')} of 5)`
    case 'review.deleted': return `deleted a review${typeof c.authorName === 'string' ? ` by ${c.authorName}` : ''}`
    case 'page.created': return `created the page ${text(c.title)}`.trim()
    case 'page.updated': return `changed the page’s ${fieldList(c)}`
    case 'page.deleted': return `deleted the page ${text(c.title)}`.trim()
    case 'page.blocks_changed': return 'rearranged the page’s blocks'
    case 'settings.updated': return `changed the store’s ${fieldList(c)}`
    case 'staff.invited': return `invited ${text(c.email)} to the staff`.replace('  ', ' ')
    case 'staff.joined': return 'joined the staff'
    case 'staff.permissions_changed': return `changed the permissions of ${text(c.email) || 'a staff member'}`
    case 'staff.removed': return `removed ${text(c.email) || 'a staff member'} from the staff`
    case 'app.installed': return `installed the app ${text(c.name)}`.trim()
    case 'app.authorized': return `authorized the app ${text(c.name)} again`.replace('  ', ' ')
    case 'app.uninstalled': return 'uninstalled an app'
    case 'app.scopes_approved': return `approved new permissions for ${text(c.name) || 'an app'}`
    case 'app.settings_changed': return 'changed an app’s settings'
    case 'app.embeds_changed': return 'changed an app’s embeds'
    case 'charge.created': return `asked for a charge ${text(c.name)}`.trim()
    case 'charge.approved': return `approved the charge ${text(c.name)}`.trim()
    case 'charge.declined': return `declined the charge ${text(c.name)}`.trim()
    case 'charge.cancelled': return `cancelled the subscription ${text(c.name)}`.trim()
    case 'charge.expired': return `let the charge ${text(c.name)} expire`.replace('  ', ' ')
    default: return payment !== null ? `changed the payment to ${words(String(payment.to))}` : words(entry.action.replace('.', ' '))
  }
}

/** Where an entry's resource is shown in the admin, when it has a screen of its own. */
export function resourceHref (entry: ActivityEntry): string | null {
  const id = encodeURIComponent(entry.resource.id)
  switch (entry.resource.type) {
    case 'order': return `/admin/orders/${id}`
    case 'product': return entry.action === 'product.deleted' ? null : `/admin/products/${id}`
    case 'charge': return `/admin/charges/${id}`
    case 'settings': return '/admin/settings'
    case 'app': return '/admin/apps'
    case 'review': return '/admin/reviews'
    case 'page': return '/admin/pages'
  }
}
