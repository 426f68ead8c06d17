import type { App } from '../../../server/app.ts'
import { SCOPES } from '../../../server/events.ts'
import { createApp, registerUser, type Session } from '../../helper.ts'

export { eventsOf } from '../merchant/fixtures.ts'

export interface Installed {
  developer: Session
  appId: string
  token: string
  businessId: string
  installationId: string
  auth: { authorization: string }
}

/**
 * A developer whose sandbox business (seeded with sample products, orders, reviews and pages) has
 * the app test-installed with `scopes`: the real flow, through the portal API.
 */
export async function installApp (app: App, scopes: readonly string[] = SCOPES, developer?: Session): Promise<Installed> {
  const owner = developer ?? await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, owner, { scopes: [...scopes] })
  const response = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: owner.auth })
  if (response.statusCode !== 201) throw new Error(`test install failed: ${response.statusCode} ${response.body}`)
  const body = response.json()
  return {
    developer: owner,
    appId: created.id,
    token: body.accessToken,
    businessId: body.businessId,
    installationId: body.installationId,
    auth: { authorization: `Bearer ${body.accessToken}` }
  }
}

export async function testUninstall (app: App, installed: Installed): Promise<void> {
  const response = await app.inject({ method: 'POST', url: `/developer/apps/${installed.appId}/test-uninstall`, headers: installed.developer.auth })
  if (response.statusCode !== 200) throw new Error(`test uninstall failed: ${response.statusCode} ${response.body}`)
}

/** A call to the App API with the installation's token. */
export function call (app: App, installed: Installed, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  return app.inject({ method, url, headers: installed.auth, ...(payload === undefined ? {} : { payload: payload as object }) })
}

/** First id of a list route (the sandbox is seeded, so there is one). */
export async function firstOf (app: App, installed: Installed, url: string): Promise<Record<string, any>> {
  const response = await call(app, installed, 'GET', url)
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`)
  return response.json().data[0]
}
