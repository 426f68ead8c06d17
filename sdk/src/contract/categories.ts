/** Marketplace categories of an app. */
export const APP_CATEGORIES = ['analytics', 'marketing', 'sales', 'shipping', 'pos', 'communication', 'automation', 'loyalty', 'other'] as const
export type AppCategory = typeof APP_CATEGORIES[number]
