import type { App } from '../../../server/app.ts'
import { createApp, oauthInstall, publishApp, registerUser, type Installed, type Session } from '../../helper.ts'

export const HOUR_MS = 3_600_000
export const DAY_MS = 24 * HOUR_MS

export interface ListedApp {
  developer: Session
  appId: string
  slug: string
  client: { clientId: string, clientSecret: string, redirectUrl: string }
}

/** A published app a merchant can install over OAuth. */
export async function listedApp (app: App, overrides: Record<string, unknown> = {}, developer?: Session): Promise<ListedApp> {
  const owner = developer ?? await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, owner, {
    scopes: ['read_business'], appUrl: 'https://app.example.com/', redirectUrl: 'https://app.example.com/oauth/callback', ...overrides
  })
  await publishApp(app, owner, created.id)
  return { developer: owner, appId: created.id, slug: created.slug, client: { clientId: created.clientId, clientSecret, redirectUrl: 'https://app.example.com/oauth/callback' } }
}

/** A new merchant with the app installed for real (OAuth). */
export async function installedBy (app: App, listed: ListedApp): Promise<{ merchant: Session, installed: Installed }> {
  const merchant = await registerUser(app, 'MERCHANT')
  return { merchant, installed: await oauthInstall(app, merchant, listed.client) }
}

/** PUT the merchant's review of the app: the response. */
export async function putReview (app: App, merchant: Session, appId: string, payload: Record<string, unknown>) {
  return await app.inject({ method: 'PUT', url: `/merchant/apps/${appId}/review`, headers: merchant.auth, payload })
}

/** Writes a review; throws unless 200. */
export async function review (app: App, merchant: Session, appId: string, rating: number, body = '') {
  const response = await putReview(app, merchant, appId, { rating, body })
  if (response.statusCode !== 200) throw new Error(`review failed: ${response.statusCode} ${response.body}`)
  return response.json() as { id: string, rating: number, body: string }
}
