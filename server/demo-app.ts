import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { ReferenceApp } from '@app-platform/reference-app'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed.ts'

/*
 * The demo's reference app (examples/reference-app, DESIGN §16): it runs in the same process on
 * EXAMPLE_APP_PORT, and on the first demo start the platform's own HTTP API (injected, as the
 * users would click it) registers it as the demo developer, installs it on the developer's sandbox
 * and submits it (its app checks run against that sandbox installation and pass), approves it as the
 * reviewer and installs it through OAuth as the demo merchant, with its block on the home page and its
 * widget on. Its listing carries its pricing (a Pro plan with a trial and capped usage, DESIGN §23), so
 * the approval makes the plan the listing shows and the app's "Upgrade to Pro" asks for.
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

/** The listing and manifest the platform holds follow where the app runs now (a new EXAMPLE_APP_PORT, or PORT=0); an older demo gets the app's plans. */
export async function syncReferenceAppUrls (platform: FastifyInstance, reference: ReferenceApp): Promise<void> {
  const { listing, extensions } = await referenceDefinition(platform, reference)
  const developer = await logIn(platform, DEMO_ACCOUNTS.developer, DEMO_PASSWORD)
  const apps = await call(platform, 'GET', '/developer/apps?limit=100', developer)
  const registered = (apps.data as Json[]).find((app) => app.slug === listing.slug)
  if (registered === undefined) return
  if (registered.redirectUrl !== listing.redirectUrl || registered.appUrl !== listing.appUrl) {
    await call(platform, 'PATCH', `/developer/apps/${registered.id}`, developer, { appUrl: listing.appUrl, redirectUrl: listing.redirectUrl, webhookUrl: listing.webhookUrl })
    await call(platform, 'PUT', `/developer/apps/${registered.id}/manifest`, developer, { manifest: extensions })
  }
  // the demo starts without the plan rather than not at all
  await priceOlderDemo(platform, developer, registered, listing.pricing).catch((err: unknown) => { platform.log.warn({ err }, 'demo: the reference app\'s plans were not added') })
}

/**
 * A demo seeded before the reference app had a paid plan: its plans are added and approved as on a
 * first start, so its "Upgrade to Pro" finds an approved plan. A demo that has plans is left as it is.
 */
async function priceOlderDemo (platform: FastifyInstance, developer: string, registered: Json, pricing: Json): Promise<void> {
  const approved = (registered.approvedPricing as Json | null)?.plans as Json[] | undefined
  if ((approved?.length ?? 0) > 0 || ((registered.pricing as Json | undefined)?.plans as Json[] | undefined ?? []).length > 0) return
  await call(platform, 'PATCH', `/developer/apps/${registered.id as string}`, developer, { pricing })
  await call(platform, 'POST', `/developer/apps/${registered.id as string}/submit`, developer)
  const reviewer = reviewerLogin(platform)
  await call(platform, 'POST', `/review/apps/${registered.id as string}/approve`, await logIn(platform, reviewer.email, reviewer.password), { notes: 'The reference app\'s Pro plan: approved for the demo.' })
}

/** The reference app's listing and manifest where it runs now, its plans in the platform's BILLING_CURRENCY. */
async function referenceDefinition (platform: FastifyInstance, reference: ReferenceApp) {
  const { appDefinition } = await import('@app-platform/reference-app')
  return appDefinition(reference.reference.urls.appUrl, { currency: platform.config.billingCurrency })
}

/**
 * Installs the reference app on the business of the account behind `token`, as that account's browser would
 * go: App URL → consent → callback. A developer's account installs on their sandbox (a test install).
 */
async function installThroughAppUrl (platform: FastifyInstance, reference: ReferenceApp, token: string): Promise<{ installationId: string }> {
  const business = await call(platform, 'GET', '/merchant/business', token)
  const start = await reference.inject({ method: 'GET', url: `/?businessId=${encodeURIComponent(business.id)}&business=${encodeURIComponent(business.slug)}` })
  const authorize = new URL(String(start.headers.location))
  const consent = await call(platform, 'POST', '/oauth/authorize', token, {
    ...Object.fromEntries(['client_id', 'redirect_uri', 'state', 'response_type', 'code_challenge', 'code_challenge_method'].map((key) => [key, authorize.searchParams.get(key)])),
    decision: 'approve'
  })
  const callback = new URL(consent.redirectTo)
  const installed = await reference.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie: String(start.headers['set-cookie']).split(';')[0] } })
  if (installed.statusCode !== 200) throw new Error(`demo: the reference app's OAuth callback answered ${installed.statusCode}: ${installed.body}`)
  const installation = reference.reference.store.installation(business.id)
  if (installation === null) throw new Error('demo: the reference app stored no installation')
  return { installationId: installation.installationId }
}

/**
 * The app's admin page as the admin panel shows it to the account behind `token`: a session token for
 * the installation, then the page's own overview call (the App API reads of read_business and
 * read_analytics, which the checks' scopes.used counts even where no browser runs the bridge check).
 */
async function openAdminPage (platform: FastifyInstance, reference: ReferenceApp, token: string, installationId: string): Promise<void> {
  const { sessionToken } = await call(platform, 'POST', `/merchant/installations/${installationId}/session-token`, token)
  const overview = await reference.inject({ method: 'GET', url: '/admin/api/overview', headers: { authorization: `Bearer ${sessionToken as string}` } })
  if (overview.statusCode !== 200) throw new Error(`demo: the reference app's admin overview answered ${overview.statusCode}: ${overview.body}`)
}

/**
 * First demo start: register the reference app, install it on the demo developer's sandbox (as a
 * developer does before submitting: the submission's check run calls the app as that sandbox store,
 * and installs nothing itself), submit, approve and install it through OAuth on the demo store, then
 * place its block on the demo store's home page and turn its widget on. The platform must be
 * listening: the app exchanges the OAuth codes and calls the App API over HTTP, as it would anywhere.
 */
export async function installReferenceAppDemo (platform: FastifyInstance, reference: ReferenceApp): Promise<void> {
  const { listing, extensions } = await referenceDefinition(platform, reference)

  const developer = await logIn(platform, DEMO_ACCOUNTS.developer, DEMO_PASSWORD)
  const created = await call(platform, 'POST', '/developer/apps', developer, listing)
  const appId = created.app.id as string
  reference.reference.store.setCredentials({ clientId: created.app.clientId, clientSecret: created.clientSecret })
  await call(platform, 'PUT', `/developer/apps/${appId}/manifest`, developer, { manifest: extensions })
  const sandbox = await installThroughAppUrl(platform, reference, developer)
  await openAdminPage(platform, reference, developer, sandbox.installationId)
  await call(platform, 'POST', `/developer/apps/${appId}/submit`, developer)
  const reviewer = reviewerLogin(platform)
  await call(platform, 'POST', `/review/apps/${appId}/approve`, await logIn(platform, reviewer.email, reviewer.password), { notes: 'The reference app: approved for the demo.' })

  // The merchant's side of the install, as their browser would go: App URL → consent → callback.
  const merchant = await logIn(platform, DEMO_ACCOUNTS.merchant, DEMO_PASSWORD)
  const installation = await installThroughAppUrl(platform, reference, merchant)

  const home = await call(platform, 'GET', '/merchant/pages/home', merchant)
  const blocks = (home.blocks as Json[]).map(({ id, installationId, blockType, settings }) => ({ id, installationId, blockType, settings }))
  await call(platform, 'PUT', '/merchant/pages/home/blocks', merchant, { blocks: [{ installationId: installation.installationId, blockType: REFERENCE_APP_BLOCK }, ...blocks] })
  await call(platform, 'PUT', `/merchant/installations/${installation.installationId}/embeds`, merchant, { embeds: { [REFERENCE_APP_EMBED]: { enabled: true } } })
}
