/** Scopes of the platform (DESIGN §7): the one list the server, the SDK and the admin UI use. */
export const SCOPES = ['read_products', 'write_products', 'read_orders', 'write_orders', 'read_reviews', 'read_analytics',
  'read_business', 'read_pages', 'write_payments', 'write_shipping', 'write_discounts'] as const
export type Scope = typeof SCOPES[number]

/** Plain words for each scope: what the merchant reads on the listing, the consent screen and in review. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read_products: 'See your products and stock',
  write_products: 'Change your products',
  read_orders: 'See your orders and payments, and check orders before they are placed',
  write_orders: 'Create orders and change their status',
  read_reviews: 'See reviews of your products',
  read_analytics: 'See your sales analytics',
  read_business: 'See your business details (name, address, contact)',
  read_pages: 'See your site pages',
  write_payments: 'Offer payment methods at checkout and take payments',
  write_shipping: 'Set delivery fees at checkout',
  write_discounts: 'Add discounts at checkout'
}

/** A scope in plain words; an unknown code is shown as is. */
export const describeScope = (scope: string): string => (SCOPE_DESCRIPTIONS as Record<string, string>)[scope] ?? scope
