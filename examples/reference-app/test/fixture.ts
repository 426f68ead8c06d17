import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { build, listen, publishApp, registerUser, REVIEWER_ENV, type Session } from '../../../test/helper.ts'
import { appDefinition, buildReferenceApp, type Installation, type ReferenceApp } from '../src/index.ts'
import { portsOf } from '../../../server/app.ts'
import type { FetchLike } from '@app-platform/sdk'

/*
 * A real platform (test/helper.ts build + listen: real HTTP on 127.0.0.1) and the reference app on
 * a port of its own, registered by a developer, approved by the reviewer, and a merchant whose store
 * has the sample catalogue and reviews. No mocks: the app exchanges codes and calls the App API over HTTP.
 */

export interface Stage {
  platform: Awaited<ReturnType<typeof build>>
  baseUrl: string
  reference: ReferenceApp
  appUrl: string
  dataDir: string
  developer: Session
  merchant: Session & { slug: string }
  appId: string
  clientId: string
}

export async function referenceAppDataDir (t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'reference-app-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** Starts the reference app on 127.0.0.1 against `platformUrl`. */
export async function startReference (t: Test, platformUrl: string, adminUrl: string, dataDir: string, fetch?: FetchLike): Promise<ReferenceApp> {
  const reference = await buildReferenceApp({ appUrl: 'http://127.0.0.1', platformUrl, adminUrl, dataDir, fetch })
  t.teardown(() => reference.close())
  await reference.listen({ port: 0, host: '127.0.0.1' })
  reference.reference.urls.appUrl = `http://127.0.0.1:${(reference.server.address() as AddressInfo).port}`
  return reference
}

/** `fetch`: the app's network (the OAuth exchange and the App API), for a test that watches what the app asks. */
export async function stage (t: Test, env: Record<string, string> = {}, fetch?: FetchLike): Promise<Stage> {
  const platform = await build(t, { env: { ...REVIEWER_ENV, ...env } })
  const baseUrl = await listen(platform)
  const dataDir = await referenceAppDataDir(t)
  const reference = await startReference(t, baseUrl, platform.origins.adminUrl, dataDir, fetch)
  const appUrl = reference.reference.urls.appUrl

  const developer = await registerUser(platform, 'DEVELOPER')
  const { listing, extensions } = appDefinition(appUrl)
  const created = await platform.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: listing })
  if (created.statusCode !== 201) throw new Error(`create app: ${created.body}`)
  const { app, clientSecret } = created.json()
  reference.reference.store.setCredentials({ clientId: app.clientId, clientSecret })
  const manifest = await platform.inject({ method: 'PUT', url: `/developer/apps/${app.id}/manifest`, headers: developer.auth, payload: { manifest: extensions } })
  if (manifest.statusCode !== 200) throw new Error(`manifest: ${manifest.body}`)
  await publishApp(platform, developer, app.id)

  const merchant = await registerUser(platform, 'MERCHANT')
  await platform.db.transaction(async (tx) => { await portsOf(platform).commerce.in(tx).seedSample(merchant.businessId, platform.clock.now()) })
  const business = (await platform.inject({ url: '/merchant/business', headers: merchant.auth })).json()
  return { platform, baseUrl, reference, appUrl, dataDir, developer, merchant: { ...merchant, slug: business.slug }, appId: app.id, clientId: app.clientId }
}

export interface BrowserInstall { start: Response, authorize: URL, cookie: string }

/** The merchant's browser at the App URL, as the marketplace's Install button sends it: a redirect to the consent screen. */
export async function openAppUrl (s: Stage): Promise<BrowserInstall> {
  const start = await fetch(`${s.appUrl}/?businessId=${s.merchant.businessId}&business=${s.merchant.slug}`, { redirect: 'manual' })
  return { start, authorize: new URL(start.headers.get('location') ?? 'about:blank'), cookie: (start.headers.get('set-cookie') ?? '').split(';')[0] }
}

/** The consent screen's approve (or deny) as the merchant; returns where the platform sends the browser back. */
export async function consent (s: Stage, authorize: URL, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const params = Object.fromEntries(['client_id', 'redirect_uri', 'state', 'response_type', 'code_challenge', 'code_challenge_method'].map((key) => [key, authorize.searchParams.get(key)]))
  const response = await s.platform.inject({ method: 'POST', url: '/oauth/authorize', headers: s.merchant.auth, payload: { ...params, decision } })
  if (response.statusCode !== 200) throw new Error(`authorize: ${response.body}`)
  return new URL(response.json().redirectTo)
}

/** The whole install, as the merchant's browser goes; returns what the app stored. */
export async function install (s: Stage): Promise<Installation> {
  const browser = await openAppUrl(s)
  const callback = await consent(s, browser.authorize)
  const done = await fetch(callback, { headers: { cookie: browser.cookie } })
  if (done.status !== 200) throw new Error(`callback: ${done.status} ${await done.text()}`)
  const installation = s.reference.reference.store.installation(s.merchant.businessId)
  if (installation === null) throw new Error('nothing stored')
  return installation
}
