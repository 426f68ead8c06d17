import type { App } from '../../../server/app.ts'
import type { PricingPlan } from '../../../sdk/src/contract/billing.ts'
import { createApp, oauthInstall, publishApp, registerUser, type Installed, type Session } from '../../helper.ts'

export const DAY_MS = 86_400_000
export const usd = (amount: number) => ({ amount, currency: 'USD' })

/** The plans most billing tests price their app with. */
export const PLANS: PricingPlan[] = [
  { id: 'basic', name: 'Basic', kind: 'RECURRING', price: usd(999), interval: 'EVERY_30_DAYS', trialDays: 7, usage: { cappedAmount: usd(5000), terms: '$0.10 per label' } },
  { id: 'pro', name: 'Pro', kind: 'RECURRING', price: usd(2999), interval: 'EVERY_30_DAYS', trialDays: 7 },
  { id: 'yearly', name: 'Yearly', kind: 'RECURRING', price: usd(12000), interval: 'ANNUAL' },
  { id: 'setup', name: 'Setup service', kind: 'ONE_TIME', price: usd(2500) }
]

/** Sets the app's pricing through the portal (PATCH /developer/apps/:appId). */
export async function setPricing (app: App, developer: Session, appId: string, plans: PricingPlan[]): Promise<void> {
  const response = await app.inject({ method: 'PATCH', url: `/developer/apps/${appId}`, headers: developer.auth, payload: { pricing: { plans } } })
  if (response.statusCode !== 200) throw new Error(`pricing failed: ${response.statusCode} ${response.body}`)
}

export interface PricedApp {
  developer: Session
  appId: string
  client: { clientId: string, clientSecret: string, redirectUrl: string }
}

/** A published app priced with `plans`, its webhook at `webhookUrl`. */
export async function pricedApp (app: App, options: { plans?: PricingPlan[], webhookUrl?: string } = {}): Promise<PricedApp> {
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, {
    scopes: ['read_business'], appUrl: 'https://app.example.com/', redirectUrl: 'https://app.example.com/oauth/callback',
    ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl })
  })
  await setPricing(app, developer, created.id, options.plans ?? PLANS)
  await publishApp(app, developer, created.id)
  return { developer, appId: created.id, client: { clientId: created.clientId, clientSecret, redirectUrl: 'https://app.example.com/oauth/callback' } }
}

/** A merchant with `priced` installed over OAuth. */
export async function merchantWith (app: App, priced: PricedApp, merchant?: Session): Promise<{ merchant: Session, installed: Installed }> {
  const owner = merchant ?? await registerUser(app, 'MERCHANT')
  return { merchant: owner, installed: await oauthInstall(app, owner, priced.client) }
}

export const RETURN_URL = 'https://app.example.com/billing/return'

/** The app asks for a charge; answers the JSON (throws unless 201). */
export async function ask (app: App, installed: Pick<Installed, 'auth'>, kind: 'subscriptions' | 'purchases', planId: string, extra: Record<string, unknown> = {}) {
  const response = await app.inject({ method: 'POST', url: `/app-api/billing/${kind}`, headers: installed.auth, payload: { planId, returnUrl: RETURN_URL, ...extra } })
  if (response.statusCode !== 201) throw new Error(`charge failed: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** The merchant approves or declines; answers the JSON (throws unless 200). */
export async function decide (app: App, merchant: Session, chargeId: string, decision: 'approve' | 'decline' = 'approve') {
  const response = await app.inject({ method: 'POST', url: `/merchant/charges/${chargeId}/${decision}`, headers: merchant.auth })
  if (response.statusCode !== 200) throw new Error(`${decision} failed: ${response.statusCode} ${response.body}`)
  return response.json()
}
