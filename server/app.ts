import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.ts'
import { listenerTimeouts } from './listener.ts'
import { validatorCompiler } from './validation.ts'
import { sharedSerializers } from './schema-compilers.ts'
import { openDatabase, type Database } from './db/client.ts'
import { holdsDatabase, keepTemplate, restoreTemplate } from './db/template.ts'
import configPlugin from './plugins/config.ts'
import clockPlugin, { type Clock } from './clock.ts'
import dbPlugin from './plugins/db.ts'
import errorsPlugin from './plugins/errors.ts'
import outboundPlugin from './plugins/outbound.ts'
import type { OutboundPolicy } from './url-policy.ts'
import jsonDepth from './plugins/json-depth.ts'
import noStore from './plugins/no-store.ts'
import inputGuard, { frameworkErrors, MAX_PARAM_LENGTH } from './plugins/input-guard.ts'
import jobsPlugin from './plugins/jobs.ts'
import metricsPlugin from './plugins/metrics.ts'
import tracingPlugin from './plugins/tracing.ts'
import type { Telemetry } from './telemetry-start.ts'
import liveEventsPlugin from './plugins/live-events.ts'
import swaggerPlugin from './plugins/swagger.ts'
import spaPlugin from './plugins/spa.ts'
import methodNotAllowed from './plugins/method-not-allowed.ts'
import originsPlugin from './plugins/origins.ts'
import healthRoutes from './plugins/health.ts'
import { mount } from './capability.ts'
import authGuards, { type Guards } from '../plugins/auth/guards.ts'
import commercePlugin, { type Commerce } from '../plugins/commerce/index.ts'
import authPlugin, { type AuthService } from '../plugins/auth/index.ts'
import appsPlugin, { type Apps } from '../plugins/apps/index.ts'
import appAnalyticsPlugin, { type AppAnalytics } from '../plugins/app-analytics/index.ts'
import relayPlugin, { type Relay } from '../plugins/relay/index.ts'
import webhooksPlugin, { type WebhooksPort } from '../plugins/webhooks/index.ts'
import installationsPlugin, { type Installations } from '../plugins/installations/index.ts'
import oauthPlugin, { type OAuth } from '../plugins/oauth/index.ts'
import checkoutHooksPlugin, { type CheckoutHooks } from '../plugins/checkout-hooks/index.ts'
import storefrontPlugin from '../plugins/storefront/index.ts'
import appChecksPlugin, { type AppChecks } from '../plugins/app-checks/index.ts'
import apiVersionsPlugin, { type ApiVersions } from '../plugins/api-versions/index.ts'
import billingPlugin, { type Billing } from '../plugins/billing/index.ts'
import bulkExportsPlugin, { type BulkExports } from '../plugins/bulk-exports/index.ts'
import appReviewsPlugin, { type AppReviews } from '../plugins/app-reviews/index.ts'
import appApiPlugin from '../plugins/app-api/index.ts'
import marketplacePlugin from '../plugins/marketplace/index.ts'
import downloadsPlugin, { type Downloads, type DownloadsOptions } from '../plugins/downloads/index.ts'

export const BODY_LIMIT = 1024 * 1024
/** How long one plugin may take to load before the boot fails as hung. */
export const PLUGIN_TIMEOUT_MS = 120_000

/** Said once at start: with several web processes and no Redis, a client gets each limit once per process. */
export const PER_PROCESS_LIMITS = 'PROCESS_ROLE=web without REDIS_URL: rate limits other than the sign-in throttle (App API, storefront, device login, registration) count per process; set REDIS_URL to share them between web processes'

export interface BuildOptions {
  config: Config
  /** An already opened database (tests share one per file); otherwise opened from config and closed with the app. */
  database?: Database
  logger?: FastifyServerOptions['logger']
  /** Replaces DNS and the address classifier of the outbound URL policy (tests: no DNS, loopback only). */
  outbound?: Partial<Pick<OutboundPolicy, 'resolve' | 'classify'>>
  /** OpenTelemetry, when main.ts started it (OTEL_EXPORTER_OTLP_ENDPOINT): a span per request, trace ids in the request logs. */
  telemetry?: Telemetry | null
  /** The time the server reads (server/clock.ts); the machine's unless a test brings one it moves. */
  clock?: Clock
  /** Where an empty DATA_DIR's migrated template is kept and read (server/db/template.ts); tests name a folder of their own. */
  templateDir?: string
  /** The template's unpacking into an empty DATA_DIR that main.ts began on another thread (restoreTemplateAside): awaited first. */
  restoring?: Promise<boolean>
  /** Where the SDK and CLI tarballs are built from and kept (tests: a broken workspace, a cache of their own). */
  downloads?: DownloadsOptions
}

/** Letters, digits and `._:-`, at most 128: a tracing id, never log or header injection. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The whole service as a fastify instance that never listens: main.ts listens, tests inject.
 * Boot order: infrastructure, the session guards, then one plugin per capability (STYLE §2, docs/architecture.md).
 */
export async function buildApp (options: BuildOptions) {
  const { config } = options
  const ownsDatabase = options.database === undefined
  // unpacked meanwhile, the folder holds its database now (a failed unpacking is tried again here, and fails again as it would have)
  if (options.restoring !== undefined) await options.restoring
  // an empty DATA_DIR starts from the migrated template an earlier first start kept (server/db/template.ts)
  const freshEmbedded = ownsDatabase && config.databaseUrl === null && config.dataDir !== null && !holdsDatabase(config.dataDir)
  const restored = freshEmbedded && restoreTemplate(config.dataDir as string, options.templateDir)
  const database = options.database ?? await openDatabase({
    databaseUrl: config.databaseUrl, listenUrl: config.databaseListenUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize,
    acquireTimeoutMs: config.databaseAcquireTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs
  })
  if (ownsDatabase) await database.migrate()

  const { requestTimeout, keepAliveTimeout, ...http } = listenerTimeouts(config)
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    requestTimeout,
    keepAliveTimeout,
    http,
    bodyLimit: BODY_LIMIT,
    // a capability's plugin boots its services and all its routes (schemas compiled, jobs' queues made): on a busy
    // machine that takes longer than fastify's 10 s default, which is a hang detector here, not a budget
    pluginTimeout: PLUGIN_TIMEOUT_MS,
    // a client's X-Request-Id is kept only in a safe shape (it lands in logs and answers), else a new one
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID()
    },
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
    frameworkErrors
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)

  app.addHook('onRequest', async (request, reply) => { reply.header('x-request-id', request.id) })
  if (ownsDatabase) app.addHook('onClose', async () => { await database.close() })

  // infrastructure; the request spans first, so that every hook and route is inside them
  if (options.telemetry != null) await app.register(tracingPlugin, { telemetry: options.telemetry })
  await app.register(configPlugin, { config })
  // the sign-in throttle counts in the database; every other limit counts in this process unless Redis is shared
  if (config.processRole === 'web' && config.redisUrl === null) app.log.warn(PER_PROCESS_LIMITS)
  await app.register(clockPlugin, { clock: options.clock })
  await app.register(outboundPlugin, { overrides: options.outbound })
  await app.register(dbPlugin, { database })
  await app.register(errorsPlugin)
  // before every plugin that adds a route (/metrics, /openapi.json, /docs), so that each one answers 405 too
  await app.register(methodNotAllowed)
  await app.register(metricsPlugin)
  await app.register(inputGuard)
  await app.register(jsonDepth)
  await app.register(noStore)
  await app.register(originsPlugin)
  await app.register(swaggerPlugin)
  await app.register(jobsPlugin)
  await app.register(liveEventsPlugin)
  await app.register(healthRoutes)
  // the session guards (requireUser, requireRole, requireMerchant) every actor route uses
  const guards = await mount(app, authGuards, {})

  // one plugin per capability (its plugins/<capability>/index.ts), each with the ports of the capabilities it
  // calls (its Needs), handing back its own: its services, then its routes at their prefixes (server/api-prefixes.ts).
  // The order is the dependency order; docs/architecture.md's "Who calls whom" is drawn from these imports.
  const commerce = await mount(app, commercePlugin, { guards })
  const auth = await mount(app, authPlugin, { commerce, guards })
  const apps = await mount(app, appsPlugin, { auth, guards })
  const appAnalytics = await mount(app, appAnalyticsPlugin, { apps, guards })
  const relay = await mount(app, relayPlugin, { apps, guards })
  const webhooks = await mount(app, webhooksPlugin, { commerce, relay, appAnalytics, apps, guards })
  const installations = await mount(app, installationsPlugin, { apps, webhooks, commerce, appAnalytics, guards })
  const oauth = await mount(app, oauthPlugin, { apps, installations, commerce, auth, guards })
  const checkoutHooks = await mount(app, checkoutHooksPlugin, { commerce, apps, installations, appAnalytics, relay, guards })
  await mount(app, storefrontPlugin, { commerce, installations, checkoutHooks })
  const appChecks = await mount(app, appChecksPlugin, { apps, installations, webhooks, checkoutHooks, commerce, guards })
  // the version each app-token call speaks (App-Api-Version, the installation's pin), the changelog, upgrades
  const apiVersions = await mount(app, apiVersionsPlugin, { appAnalytics, commerce, apps, installations, guards })
  // app billing: charges, approvals, invoices, earnings (DESIGN §23); follows uninstalls
  const billing = await mount(app, billingPlugin, { apps, installations, guards })
  // bulk exports: an installation's records as one signed file (DESIGN §25); follows uninstalls
  const bulkExports = await mount(app, bulkExportsPlugin, { commerce, installations })
  // what apps call with their access token (/app-api, /webhooks): one token check and one rate-limit budget
  await mount(app, appApiPlugin, { commerce, checkoutHooks, installations, appAnalytics, appChecks, apiVersions, webhooks, billing, bulkExports })
  // businesses' reviews of apps, the developer's answers, a reviewer's hiding (DESIGN §24)
  const appReviews = await mount(app, appReviewsPlugin, { installations, commerce, apps, guards })
  await mount(app, marketplacePlugin, { apps, auth, installations, appReviews })
  const downloads = await mount(app, downloadsPlugin, options.downloads ?? {})

  // the admin SPA's frame sources, per page load: an app installed a moment ago can show its admin page after a reload
  await app.register(spaPlugin, { frameSources: async () => [...await installations.adminPageOrigins(), app.origins.storefrontSource] })

  const ports: Ports = {
    guards, commerce, auth, apps, appAnalytics, relay, webhooks, installations, oauth, checkoutHooks, appChecks, apiVersions, billing, bulkExports, appReviews,
    downloads
  }
  portsByApp.set(app, ports)
  // kept once every plugin has booted: pg-boss's schema and the queues the plugins created are in it too. Not when
  // the boot wrote an account (REVIEWER_EMAIL's reviewer): the template must hold no data, or the next empty
  // DATA_DIR would start with that account (and a demo seed, seeing a user, would do nothing)
  const templateProblem = freshEmbedded && !restored && config.reviewer === null ? await keepTemplate(database, options.templateDir) : null
  if (templateProblem !== null) app.log.warn(templateProblem)
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>

/** The capabilities' ports of a built app: for main.ts, the demo seed and tests; no capability reaches them here. */
export interface Ports {
  guards: Guards
  commerce: Commerce
  auth: AuthService
  apps: Apps
  appAnalytics: AppAnalytics
  relay: Relay
  webhooks: WebhooksPort
  installations: Installations
  oauth: OAuth
  checkoutHooks: CheckoutHooks
  appChecks: AppChecks
  apiVersions: ApiVersions
  billing: Billing
  bulkExports: BulkExports
  appReviews: AppReviews
  downloads: Downloads
}

const portsByApp = new WeakMap<object, Ports>()

export function portsOf (app: App): Ports {
  const ports = portsByApp.get(app)
  if (ports === undefined) throw new Error('portsOf: not an app built by buildApp')
  return ports
}
