import type * as Tap from 'tap'
import type { App } from '../../../server/app.ts'
import { SCOPES } from '../../../server/events.ts'
import { createApp, registerUser, type Session } from '../../helper.ts'

export { eventsOf } from '../commerce/fixtures.ts'

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
export async function installApp (
  app: App, scopes: readonly string[] = SCOPES, developer?: Session, settings: Record<string, unknown> = {}
): Promise<Installed> {
  const owner = developer ?? await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, owner, { ...settings, scopes: [...scopes] })
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

/**
 * The list edges every paginated route must keep: default and clamped limits reported in `limit`,
 * a page beyond the end is empty with the right total, and a bad limit or page is a 400.
 */
export async function checkPagination (t: Tap.Test, app: App, installed: Installed, url: string, limits: { defaultLimit: number, maxLimit: number }) {
  const sep = url.includes('?') ? '&' : '?'
  const get = (query: string) => call(app, installed, 'GET', `${url}${sep}${query}`)
  const first = await get('')
  t.equal(first.statusCode, 200, `${url} 200`)
  const { total, limit, page } = first.json()
  t.equal(page, 1, 'default page 1')
  t.equal(limit, limits.defaultLimit, `default limit ${limits.defaultLimit}`)
  t.ok(total > 0, 'some data')
  const clamped = (await get('limit=1000')).json()
  t.equal(clamped.limit, limits.maxLimit, `limit 1000 clamped to ${limits.maxLimit}`)
  t.equal(clamped.total, total)
  const one = (await get('limit=1&page=2')).json()
  t.equal(one.data.length, total >= 2 ? 1 : 0, 'limit 1, page 2')
  const beyond = await get('page=999')
  t.equal(beyond.statusCode, 200)
  t.same(beyond.json(), { data: [], total, page: 999, limit: limits.defaultLimit }, 'page beyond the end: empty, same total')
  for (const bad of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'page=0', 'page=-2', 'page=x', 'page=99999999999']) {
    const response = await get(bad)
    t.equal(response.statusCode, 400, `${url} ${bad} → 400`)
    t.equal(response.json().error, 'Bad Request')
  }
}

/** Route tests make more calls than the real 60 a minute; the limit itself is tested in auth.test.ts. */
export const NO_RATE_LIMIT = { env: { RATE_LIMIT_PER_MINUTE: '1000000' } }
