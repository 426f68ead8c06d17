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
import authGuards from '../plugins/auth/guards.ts'
import commerce from '../plugins/commerce/index.ts'
import auth from '../plugins/auth/index.ts'
import apps from '../plugins/apps/index.ts'
import appAnalytics from '../plugins/app-analytics/index.ts'
import relay from '../plugins/relay/index.ts'
import webhooks from '../plugins/webhooks/index.ts'
import installations from '../plugins/installations/index.ts'
import oauth from '../plugins/oauth/index.ts'
import checkoutHooks from '../plugins/checkout-hooks/index.ts'
import storefront from '../plugins/storefront/index.ts'
import appChecks from '../plugins/app-checks/index.ts'
import apiVersions from '../plugins/api-versions/index.ts'
import appApi from '../plugins/app-api/index.ts'
import marketplace from '../plugins/marketplace/index.ts'
import downloads from '../plugins/downloads/index.ts'
import type { DownloadsOptions } from '../plugins/downloads/index.ts'

export const BODY_LIMIT = 1024 * 1024

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
  // per page load: an app installed a moment ago can show its admin page after a reload
  await app.register(spaPlugin, { frameSources: async () => [...await app.installations.adminPageOrigins(), app.origins.storefrontSource] })

  await app.register(healthRoutes)
  // the session guards (requireUser, requireRole, requireMerchant) every actor route uses
  await app.register(authGuards)

  // one plugin per capability (its plugins/<capability>/index.ts): its services, then its routes at their
  // prefixes (server/api-prefixes.ts); each after the capabilities its services declare in `dependencies`
  await app.register(commerce)
  await app.register(auth)
  // the review record shows authors' names: auth's lookup is handed in here, not called back from apps
  await app.register(apps, { authorNames: app.auth.namesOf })
  await app.register(appAnalytics)
  await app.register(relay)
  await app.register(webhooks)
  await app.register(installations)
  await app.register(oauth)
  await app.register(checkoutHooks)
  await app.register(storefront)
  await app.register(appChecks)
  // the version each app-token call speaks (App-Api-Version, the installation's pin), the changelog, upgrades
  await app.register(apiVersions)
  // what apps call with their access token (/app-api and /webhooks): one token check and one rate-limit budget
  await app.register(appApi)
  await app.register(marketplace)
  await app.register(downloads, options.downloads ?? {})

  // kept once every plugin has booted: pg-boss's schema and the queues the plugins created are in it too
  const templateProblem = freshEmbedded && !restored ? await keepTemplate(database, options.templateDir) : null
  if (templateProblem !== null) app.log.warn(templateProblem)
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
