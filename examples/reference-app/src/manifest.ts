import { readFileSync } from 'node:fs'
import type { Pricing } from '@app-platform/sdk'

/**
 * app.manifest.json with `{{APP_URL}}` replaced by where this app runs: the listing (what
 * POST /developer/apps takes) and the extensions (what PUT /developer/apps/:id/manifest takes).
 */
export const MANIFEST_FILE = new URL('../app.manifest.json', import.meta.url)

export interface AppDefinition {
  listing: {
    name: string
    slug: string
    description: string
    category: string
    scopes: string[]
    /** The install entry and home (DESIGN §15): the listing's Install button comes here. */
    appUrl: string
    redirectUrl: string
    webhookUrl: string
    webhookEvents: string[]
    version: string
    /** The plans merchants may subscribe to (DESIGN §23): approved with the listing, shown on it and on the consent screen. */
    pricing: Pricing
  }
  extensions: Record<string, unknown>
}

/** `currency`: the platform's BILLING_CURRENCY when it is not the file's (every plan's amounts must be in it). */
export function appDefinition (appUrl: string, options: { currency?: string } = {}): AppDefinition {
  const text = readFileSync(MANIFEST_FILE, 'utf8').replaceAll('{{APP_URL}}', appUrl.replace(/\/$/, ''))
  const definition = JSON.parse(text) as AppDefinition & { $comment?: string }
  delete definition.$comment
  const { currency } = options
  if (currency !== undefined) {
    definition.listing.pricing.plans = definition.listing.pricing.plans.map((plan) => ({
      ...plan,
      price: { ...plan.price, currency },
      ...(plan.usage === undefined ? {} : { usage: { ...plan.usage, cappedAmount: { ...plan.usage.cappedAmount, currency } } })
    }))
  }
  return definition
}
