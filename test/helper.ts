import { randomBytes } from 'node:crypto'
import { createConnection, type AddressInfo } from 'node:net'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { Test } from 'tap'
import { buildApp, portsOf, type App, type BuildOptions as AppBuildOptions } from '../server/app.ts'
import type { Database } from '../server/db/client.ts'
import { listenerTimeouts } from '../server/listener.ts'
import { testConfig, testDatabaseUrl, testPglite } from './database.ts'

export { SERVER_URL, testConfig, testDatabaseUrl } from './database.ts'
export { portsOf } from '../server/app.ts'
export { gate, until, within } from './wait.ts'

export interface BuildOptions {
  env?: Record<string, string>
  /** Share one database between several apps (several "processes"). */
  databaseUrl?: string | null
  /** The outbound URL policy's resolver and classifier (production-mode tests: no DNS). */
  outbound?: AppBuildOptions['outbound']
  /** The time the app reads: a TestClock (test/clock.ts) the test moves forward; the machine's otherwise. */
  clock?: AppBuildOptions['clock']
  /** The SDK and CLI tarballs' workspace and cache (plugins/downloads). */
  downloads?: AppBuildOptions['downloads']
}

/**
 * The app on a fresh database copied from the migrated template (in-memory PGlite, or a new
 * PostgreSQL database), closed on teardown; a failing test keeps its database and says where.
 */
export async function build (t: Test, options: BuildOptions = {}): Promise<App> {
  const databaseUrl = options.databaseUrl !== undefined ? options.databaseUrl : await testDatabaseUrl(t)
  const database = databaseUrl === null ? await testPglite(t) : undefined
  const app = await buildApp({
    config: testConfig(options.env, databaseUrl), outbound: options.outbound, clock: options.clock, downloads: options.downloads,
    ...(database !== undefined ? { database } : {})
  })
  t.teardown(() => app.close())
  await app.ready()
  return app
}

/**
 * Listens on 127.0.0.1 on free ports, for tests that need real HTTP: the API/admin origin and the
 * storefront's own listener (closed with the app); the derived origins follow. Returns the base URL;
 * `app.origins.storefrontUrl` is the storefront's.
 */
export async function listen (app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const storefront = createServer(listenerTimeouts(app.config), app.storefront.handler).listen(0, '127.0.0.1')
  await once(storefront, 'listening')
  app.server.once('close', () => { storefront.close(); storefront.closeAllConnections() })
  const { port } = app.server.address() as AddressInfo
  app.origins.listening({ api: port, storefront: (storefront.address() as AddressInfo).port }, '127.0.0.1')
  return `http://127.0.0.1:${port}`
}

let counter = 0
export function uniqueEmail (prefix = 'user'): string {
  counter += 1
  return `${prefix}-${process.pid}-${counter}-${randomBytes(3).toString('hex')}@example.com`
}

export interface Session { token: string, userId: string, businessId: string, email: string, auth: { authorization: string } }

/** Registers an account through the API and returns its session. */
export async function registerUser (app: App, role: 'DEVELOPER' | 'MERCHANT', extra: Record<string, unknown> = {}): Promise<Session> {
  const email = uniqueEmail(role.toLowerCase())
  const response = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { email, password: 'correct-horse', name: `Test ${role}`, role, ...(role === 'MERCHANT' ? { businessName: `Shop ${email.slice(0, 12)}` } : {}), ...extra }
  })
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`)
  const body = response.json()
  return { token: body.token, userId: body.user.id, businessId: body.businessId, email, auth: { authorization: `Bearer ${body.token}` } }
}

/** Logs in the reviewer that REVIEWER_EMAIL / REVIEWER_PASSWORD ensured. */
export const REVIEWER_ENV = { REVIEWER_EMAIL: 'reviewer@example.com', REVIEWER_PASSWORD: 'reviewer-password' }

export async function loginReviewer (app: App): Promise<Session> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: REVIEWER_ENV.REVIEWER_EMAIL, password: REVIEWER_ENV.REVIEWER_PASSWORD } })
  if (response.statusCode !== 200) throw new Error(`reviewer login failed: ${response.statusCode} ${response.body}`)
  const body = response.json()
  return { token: body.token, userId: body.user.id, businessId: body.businessId, email: REVIEWER_ENV.REVIEWER_EMAIL, auth: { authorization: `Bearer ${body.token}` } }
}

let appCounter = 0
export function appInput (overrides: Record<string, unknown> = {}) {
  appCounter += 1
  return {
    name: `Test App ${appCounter}`,
    slug: `test-app-${process.pid}-${appCounter}-${randomBytes(2).toString('hex')}`,
    description: 'Does useful things for merchants.',
    category: 'analytics',
    scopes: ['read_products', 'read_orders'],
    redirectUrl: 'https://app.example.com/oauth/callback',
    webhookUrl: 'https://app.example.com/webhooks',
    ...overrides
  }
}

/** Creates an app through the portal API; returns the app view and its one-time client secret. */
export async function createApp (app: App, developer: Session, overrides: Record<string, unknown> = {}) {
  const response = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: appInput(overrides) })
  if (response.statusCode !== 201) throw new Error(`create app failed: ${response.statusCode} ${response.body}`)
  return response.json() as { app: Record<string, any> & { id: string, clientId: string, slug: string }, clientSecret: string }
}

/** Submits and approves an app (the reviewer comes from REVIEWER_ENV, which the app must be built with). */
export async function publishApp (app: App, developer: Session, appId: string, notes?: string) {
  const submitted = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/submit`, headers: developer.auth })
  if (submitted.statusCode !== 200) throw new Error(`submit failed: ${submitted.statusCode} ${submitted.body}`)
  // the submission started an app check run: let it finish, so that it never races what the test does next
  await portsOf(app).appChecks.idle()
  const reviewer = await loginReviewer(app)
  const approved = await app.inject({ method: 'POST', url: `/review/apps/${appId}/approve`, headers: reviewer.auth, payload: notes === undefined ? {} : { notes } })
  if (approved.statusCode !== 200) throw new Error(`approve failed: ${approved.statusCode} ${approved.body}`)
  return approved.json()
}

export interface Installed {
  accessToken: string, installationId: string, businessId: string, webhookSecret: string, scope: string,
  auth: { authorization: string }
}

/** The whole OAuth install through the API: consent as `user`, then the code exchange with Basic auth. */
export async function oauthInstall (app: App, user: Session, client: { clientId: string, clientSecret: string, redirectUrl: string },
  scope?: string): Promise<Installed> {
  const consent = await app.inject({
    method: 'POST', url: '/oauth/authorize', headers: user.auth,
    payload: { client_id: client.clientId, redirect_uri: client.redirectUrl, response_type: 'code', decision: 'approve', state: 'xyz', ...(scope === undefined ? {} : { scope }) }
  })
  if (consent.statusCode !== 200) throw new Error(`authorize failed: ${consent.statusCode} ${consent.body}`)
  const code = new URL(consent.json().redirectTo).searchParams.get('code') as string
  const token = await app.inject({
    method: 'POST', url: '/oauth/token',
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}` },
    payload: { grant_type: 'authorization_code', code, redirect_uri: client.redirectUrl }
  })
  if (token.statusCode !== 200) throw new Error(`token failed: ${token.statusCode} ${token.body}`)
  const body = token.json()
  return { accessToken: body.access_token, installationId: body.installation_id, businessId: body.business_id, webhookSecret: body.webhook_secret, scope: body.scope, auth: { authorization: `Bearer ${body.access_token}` } }
}

/** The Redis of the shared rate-limit tests: REDIS_URL, or the machine's. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Whether something answers at REDIS_URL (the Redis tests are skipped otherwise). */
export async function redisReachable (): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL)
  return await new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) })
    socket.setTimeout(500)
    socket.once('connect', () => { socket.end(); resolve(true) })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => { socket.destroy(); resolve(false) })
  })
}

/**
 * pg-boss starts a delayed job by the database's clock, not the app's (docs/decisions.md): a test that
 * moved the app's clock past a job's time releases the queue's waiting jobs, and then awaits their work.
 * Returns how many it released.
 */
export async function releaseDelayedJobs (app: App, queue: string): Promise<number> {
  const { rows } = await app.database.executeSql(`update pgboss.job set start_after = now()
    where name = $1 and state in ('created', 'retry') and start_after > now() returning id`, [queue])
  return rows.length
}

/**
 * Terminates the PostgreSQL backends LISTENing on `channel` in the test's database, as a server
 * restart or a network cut would drop them; returns how many there were.
 */
export async function dropListenConnections (database: Database, databaseUrl: string, channel: string): Promise<number> {
  const { rows } = await database.executeSql(`select pg_terminate_backend(pid) from pg_stat_activity
    where datname = $1 and query like $2`, [new URL(databaseUrl).pathname.slice(1), `listen %${channel}%`])
  return rows.length
}
