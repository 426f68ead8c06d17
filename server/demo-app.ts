import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { ReferenceApp } from '@app-platform/reference-app'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed.ts'

/*
 * The demo's reference app (examples/reference-app, DESIGN §16): it runs in the same process on
 * EXAMPLE_APP_PORT, and on the first demo start the platform's own HTTP API (injected, as the
 * users would click it) registers it as the demo developer, approves it as the reviewer and
 * installs it through OAuth as the demo merchant, with its block on the home page and its widget on.
 */

export const REFERENCE_APP_BLOCK = 'reviews-highlights'
export const REFERENCE_APP_EMBED = 'loyalty-widget'

type Json = Record<string, any>

async function call (platform: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, payload?: unknown): Promise<Json> {
  const response = await platform.inject({ method, url, payload: payload as Json | undefined, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
  if (response.statusCode >= 300) throw new Error(`demo: ${method} ${url} answered ${response.statusCode}: ${response.body}`)
  return response.json()
}

async function logIn (platform: FastifyInstance, email: string, password: string): Promise<string> {
  return (await call(platform, 'POST', '/auth/login', undefined, { email, password })).token
}

function reviewerLogin (platform: FastifyInstance): { email: string, password: string } {
  return platform.config.reviewer ?? { email: DEMO_ACCOUNTS.reviewer, password: DEMO_PASSWORD }
}

/** Starts the reference app on `port` (0: any free one), keeping its data under `$DATA_DIR/example-app`. */
export async function startReferenceApp (platform: FastifyInstance, options: { port: number, host: string, dataDir: string }): Promise<ReferenceApp> {
  const { buildReferenceApp } = await import('@app-platform/reference-app')
  const reference = await buildReferenceApp({
    appUrl: 'http://localhost', // the real port is known after listen, just below
    platformUrl: platform.origins.baseUrl,
    adminUrl: platform.origins.adminUrl,
    dataDir: join(options.dataDir, 'example-app'),
    loggerInstance: platform.log.child({ app: 'reference-app' })
  })
  await reference.listen({ port: options.port, host: options.host })
  reference.reference.urls.appUrl = `http://localhost:${(reference.server.address() as AddressInfo).port}`
  return reference
}

/** The listing and manifest the platform holds follow where the app runs now (a new EXAMPLE_APP_PORT, or PORT=0). */
export async function syncReferenceAppUrls (platform: FastifyInstance, reference: ReferenceApp): Promise<void> {
  const { appDefinition } = await import('@app-platform/reference-app')
  const { listing, extensions } = appDefinition(reference.reference.urls.appUrl)
  const developer = await logIn(platform, DEMO_ACCOUNTS.developer, DEMO_PASSWORD)
  const apps = await call(platform, 'GET', '/developer/apps?limit=100', developer)
  const registered = (apps.data as Json[]).find((app) => app.slug === listing.slug)
  if (registered === undefined || (registered.redirectUrl === listing.redirectUrl && registered.appUrl === listing.appUrl)) return
  await call(platform, 'PATCH', `/developer/apps/${registered.id}`, developer, { appUrl: listing.appUrl, redirectUrl: listing.redirectUrl, webhookUrl: listing.webhookUrl })
  await call(platform, 'PUT', `/developer/apps/${registered.id}/manifest`, developer, { manifest: extensions })
}

/**
 * First demo start: register, approve and install the reference app, then place its block on the
 * demo store's home page and turn its widget on. The platform must be listening: the app exchanges
 * the OAuth code and calls the App API over HTTP, as it would anywhere.
 */
export async function installReferenceAppDemo (platform: FastifyInstance, reference: ReferenceApp): Promise<void> {
  const { appDefinition } = await import('@app-platform/reference-app')
  const { listing, extensions } = appDefinition(reference.reference.urls.appUrl)

  const developer = await logIn(platform, DEMO_ACCOUNTS.developer, DEMO_PASSWORD)
  const created = await call(platform, 'POST', '/developer/apps', developer, listing)
  const appId = created.app.id as string
  reference.reference.store.setCredentials({ clientId: created.app.clientId, clientSecret: created.clientSecret })
  await call(platform, 'PUT', `/developer/apps/${appId}/manifest`, developer, { manifest: extensions })
  await call(platform, 'POST', `/developer/apps/${appId}/submit`, developer)
  const reviewer = reviewerLogin(platform)
  await call(platform, 'POST', `/review/apps/${appId}/approve`, await logIn(platform, reviewer.email, reviewer.password), { notes: 'The reference app: approved for the demo.' })

  // The merchant's side of the install, as their browser would go: App URL → consent → callback.
  const merchant = await logIn(platform, DEMO_ACCOUNTS.merchant, DEMO_PASSWORD)
  const business = await call(platform, 'GET', '/merchant/business', merchant)
  const start = await reference.inject({ method: 'GET', url: `/?businessId=${encodeURIComponent(business.id)}&business=${encodeURIComponent(business.slug)}` })
  const authorize = new URL(String(start.headers.location))
  const consent = await call(platform, 'POST', '/oauth/authorize', merchant, {
    ...Object.fromEntries(['client_id', 'redirect_uri', 'state', 'response_type', 'code_challenge', 'code_challenge_method'].map((key) => [key, authorize.searchParams.get(key)])),
    decision: 'approve'
  })
  const callback = new URL(consent.redirectTo)
  const installed = await reference.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie: String(start.headers['set-cookie']).split(';')[0] } })
  if (installed.statusCode !== 200) throw new Error(`demo: the reference app's OAuth callback answered ${installed.statusCode}: ${installed.body}`)
  const installation = reference.reference.store.installation(business.id)
  if (installation === null) throw new Error('demo: the reference app stored no installation')

  const home = await call(platform, 'GET', '/merchant/pages/home', merchant)
  const blocks = (home.blocks as Json[]).map(({ id, installationId, blockType, settings }) => ({ id, installationId, blockType, settings }))
  await call(platform, 'PUT', '/merchant/pages/home/blocks', merchant, { blocks: [{ installationId: installation.installationId, blockType: REFERENCE_APP_BLOCK }, ...blocks] })
  await call(platform, 'PUT', `/merchant/installations/${installation.installationId}/embeds`, merchant, { embeds: { [REFERENCE_APP_EMBED]: { enabled: true } } })
}
