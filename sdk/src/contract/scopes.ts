/** Scopes of the platform (DESIGN §7): the one list the server, the SDK and the admin UI use. */
export const SCOPES = ['read_products', 'write_products', 'read_orders', 'write_orders', 'read_reviews', 'read_analytics',
  'read_business', 'read_pages', 'write_payments', 'write_shipping', 'write_discounts'] as const
export type Scope = typeof SCOPES[number]
