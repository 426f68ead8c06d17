import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.ts'
import { listenerTimeouts } from './listener.ts'
import { validatorCompiler } from './validation.ts'
import { openDatabase, type Database } from './db/client.ts'
import configPlugin from './plugins/config.ts'
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
import { PREFIX } from './api-prefixes.ts'
import authGuards from '../plugins/auth/guards.ts'
import authService from '../plugins/auth/service.ts'
import authRoutes from '../plugins/auth/index.ts'
import cliTokenRoutes from '../plugins/auth/cli-token-routes.ts'
import appsService from '../plugins/apps/service.ts'
import appsRoutes from '../plugins/apps/routes.ts'
import manifestRoutes from '../plugins/apps/manifest/routes.ts'
import reviewRoutes from '../plugins/apps/review-routes.ts'
import { mediaRoutes } from '../plugins/apps/media.ts'
import marketplaceRoutes from '../plugins/marketplace/index.ts'
import installationsService from '../plugins/installations/service.ts'
import appAuth from '../plugins/installations/app-auth.ts'
import { registerAppRateLimit } from '../plugins/installations/app-rate-limit.ts'
import testInstallRoutes from '../plugins/installations/test-install-routes.ts'
import merchantInstallationRoutes from '../plugins/installations/merchant-routes.ts'
import webhookDelivery from '../plugins/webhooks/delivery-plugin.ts'
import webhooksService from '../plugins/webhooks/service.ts'
import webhookRoutes from '../plugins/webhooks/routes.ts'
import webhookConsoleRoutes from '../plugins/webhooks/console-routes.ts'
import appAnalyticsService, { registerApiCounting } from '../plugins/app-analytics/service.ts'
import appAnalyticsRoutes, { liveTailRoutes } from '../plugins/app-analytics/index.ts'
import oauthRoutes from '../plugins/oauth/index.ts'
import oauthService from '../plugins/oauth/service.ts'
import oauthMetadataRoutes from '../plugins/oauth/metadata-routes.ts'
import appApiRoutes from '../plugins/app-api/index.ts'
import commerceService from '../plugins/commerce/service.ts'
import catalogCache from '../plugins/commerce/catalog-cache-plugin.ts'
import paymentExpiry from '../plugins/commerce/payment-expiry.ts'
import commerceRoutes from '../plugins/commerce/index.ts'
import sampleImageRoutes from '../plugins/commerce/routes/sample-images.ts'
import productImageRoutes from '../plugins/commerce/routes/product-images.ts'
import checkoutHooksService from '../plugins/checkout-hooks/service.ts'
import hookCallConsoleRoutes from '../plugins/checkout-hooks/console-routes.ts'
import storefrontRateLimit from '../plugins/storefront/rate-limit.ts'
import storefrontRoutes from '../plugins/storefront/index.ts'
import appChecksService, { registerScopeUse } from '../plugins/app-checks/service.ts'
import appChecksRoutes from '../plugins/app-checks/index.ts'
import relayService from '../plugins/relay/service.ts'
import relayRoutes from '../plugins/relay/routes.ts'

export const BODY_LIMIT = 1024 * 1024

export interface BuildOptions {
  config: Config
  /** An already opened database (tests share one per file); otherwise opened from config and closed with the app. */
  database?: Database
  logger?: FastifyServerOptions['logger']
  /** Replaces DNS and the address classifier of the outbound URL policy (tests: no DNS, loopback only). */
  outbound?: Partial<Pick<OutboundPolicy, 'resolve' | 'classify'>>
  /** OpenTelemetry, when main.ts started it (OTEL_EXPORTER_OTLP_ENDPOINT): a span per request, trace ids in the request logs. */
  telemetry?: Telemetry | null
}

/** Letters, digits and `._:-`, at most 128: a tracing id, never log or header injection. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The whole service as a fastify instance that never listens: main.ts listens, tests inject.
 * Boot order: infrastructure, shared services, capabilities (STYLE §2).
 */
export async function buildApp (options: BuildOptions) {
  const { config } = options
  const ownsDatabase = options.database === undefined
  const database = options.database ?? await openDatabase({
    databaseUrl: config.databaseUrl, listenUrl: config.databaseListenUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize,
    acquireTimeoutMs: config.databaseAcquireTimeoutMs
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
    frameworkErrors
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)

  app.addHook('onRequest', async (request, reply) => { reply.header('x-request-id', request.id) })
  if (ownsDatabase) app.addHook('onClose', async () => { await database.close() })

  // infrastructure; the request spans first, so that every hook and route is inside them
  if (options.telemetry != null) await app.register(tracingPlugin, { telemetry: options.telemetry })
  await app.register(configPlugin, { config })
  await app.register(outboundPlugin, { overrides: options.outbound })
  await app.register(dbPlugin, { database })
  await app.register(errorsPlugin)
  await app.register(metricsPlugin)
  await app.register(inputGuard)
  await app.register(jsonDepth)
  await app.register(noStore)
  await app.register(originsPlugin)
  await app.register(swaggerPlugin)
  await app.register(jobsPlugin)
  await app.register(liveEventsPlugin)
  await app.register(methodNotAllowed)
  // per page load: an app installed a moment ago can show its admin page after a reload
  await app.register(spaPlugin, { frameSources: async () => [...await app.installations.adminPageOrigins(), app.origins.storefrontSource] })

  // shared services, each after the ones it declares in `dependencies`
  await app.register(commerceService)
  await app.register(catalogCache)
  await app.register(paymentExpiry)
  await app.register(authGuards)
  await app.register(authService)
  await app.register(appsService)
  await app.register(appAnalyticsService)
  await app.register(relayService)
  await app.register(webhookDelivery)
  await app.register(webhooksService)
  await app.register(installationsService)
  await app.register(oauthService)
  await app.register(appAuth)
  await app.register(storefrontRateLimit)
  await app.register(checkoutHooksService)
  await app.register(appChecksService)

  // capabilities, at their prefixes (server/api-prefixes.ts)
  await app.register(healthRoutes)
  await app.register(authRoutes, { prefix: PREFIX.auth })
  await app.register(cliTokenRoutes, { prefix: PREFIX.developerCliTokens })
  await app.register(appsRoutes, { prefix: PREFIX.developerApps })
  await app.register(manifestRoutes, { prefix: PREFIX.developerApps })
  await app.register(mediaRoutes, { prefix: PREFIX.media })
  await app.register(sampleImageRoutes, { prefix: PREFIX.sampleMedia })
  await app.register(productImageRoutes, { prefix: PREFIX.productMedia })
  await app.register(reviewRoutes, { prefix: PREFIX.review })
  await app.register(marketplaceRoutes, { prefix: PREFIX.marketplace })
  await app.register(testInstallRoutes, { prefix: PREFIX.developerApps })
  await app.register(appAnalyticsRoutes, { prefix: PREFIX.developerApps })
  await app.register(webhookConsoleRoutes, { prefix: PREFIX.developerApps })
  await app.register(hookCallConsoleRoutes, { prefix: PREFIX.developerApps })
  await app.register(liveTailRoutes, { prefix: PREFIX.developerApps })
  await app.register(relayRoutes, { prefix: PREFIX.developerApps })
  await app.register(merchantInstallationRoutes, { prefix: PREFIX.merchantInstallations })
  await app.register(oauthRoutes, { prefix: PREFIX.oauth })
  await app.register(oauthMetadataRoutes, { prefix: PREFIX.wellKnown })
  // What apps call with their access token: one token check and one rate-limit budget per installation cover both.
  // The token is read, the call counted (X-RateLimit-* on every answer, 401 included: DESIGN §21), then a bad token refused.
  await app.register(async function appTokenScope (scope) {
    scope.addHook('onRequest', scope.identifyAppToken)
    registerApiCounting(scope)
    registerScopeUse(scope)
    await registerAppRateLimit(scope, { then: scope.requireAppToken })
    await scope.register(appApiRoutes, { prefix: PREFIX.appApi })
    await scope.register(webhookRoutes, { prefix: PREFIX.webhooks })
  })
  await app.register(commerceRoutes, { prefix: PREFIX.merchant })
  await app.register(storefrontRoutes, { prefix: PREFIX.store })
  await app.register(appChecksRoutes)

  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
