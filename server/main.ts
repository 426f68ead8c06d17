// first: the tracing instrumentations must be in place before pg and undici load
import { activeTelemetry } from './telemetry-start.ts'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import closeWithGrace from 'close-with-grace'
import { loadConfig, ConfigError } from './config.ts'
import { holdsDatabase, restoreTemplateAside } from './db/template.ts'
import { listenerTimeouts } from './listener.ts'
import type { startReferenceApp as referenceAppStart } from './demo-app.ts'

const started = performance.now()

let config
try {
  config = loadConfig(process.env)
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}

// An empty DATA_DIR's database is unpacked from the template (server/db/template.ts) on another thread while
// this one loads the server's modules: the two were most of a first start, one after the other.
const restoring = config.databaseUrl === null && config.dataDir !== null && !holdsDatabase(config.dataDir) ? restoreTemplateAside(config.dataDir) : undefined
const [{ buildApp, portsOf }, { ensureUiBuilt }, { loggerOptions }, { demoAccountRefusal, demoLogins, seedDemo }, demoApp] =
  await Promise.all([import('./app.ts'), import('./build-ui.ts'), import('./logger.ts'), import('./seed.ts'), import('./demo-app.ts')])
const { installReferenceAppDemo, startReferenceApp, syncReferenceAppUrls } = demoApp

await ensureUiBuilt()
const telemetry = activeTelemetry()
const app = await buildApp({ config, logger: loggerOptions(config.logLevel), telemetry, restoring })
const refusal = await demoAccountRefusal(app)
if (refusal !== null) {
  console.error(refusal)
  await app.close()
  process.exit(1)
}
// The storefront's own listener (DESIGN §14): the same app, which serves only the stores there.
const storefront = createServer(listenerTimeouts(config), app.storefront.handler)
// The demo's reference app (examples/reference-app) on EXAMPLE_APP_PORT, with the embedded demo only.
const demo = config.demoSeed && config.databaseUrl === null && config.dataDir !== null
let reference: Awaited<ReturnType<typeof referenceAppStart>> | null = null

/** Set once a signal or an error started the shutdown: what the start still had to do stops quietly. */
let closing = false
closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
  closing = true
  if (err !== undefined) app.log.error({ err }, 'closing after an error')
  else app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight work')
  const storefrontClosed = new Promise((resolve) => storefront.close(resolve))
  storefront.closeIdleConnections()
  await Promise.all([app.close(), storefrontClosed, reference?.close()])
  await telemetry?.shutdown()
})

const seeded = demo ? await seedDemo(app) !== null : false
if (seeded) app.log.info('demo data created')

await app.listen({ port: config.port, host: config.host })
storefront.listen(config.storefrontPort, config.host)
// the SDK and CLI tarballs build in the background from the first start (DESIGN §22): `/downloads` waits for them, nothing else does
portsOf(app).downloads.warm()
await once(storefront, 'listening')
app.origins.listening({ api: (app.server.address() as AddressInfo).port, storefront: (storefront.address() as AddressInfo).port })
const { baseUrl, adminUrl, storefrontUrl } = app.origins

try {
  if (demo) {
    reference = await startReferenceApp(app, { port: config.exampleAppPort, host: config.host, dataDir: config.dataDir as string })
    if (seeded) await installReferenceAppDemo(app, reference)
    else if (reference.reference.store.credentials() !== null) await syncReferenceAppUrls(app, reference)
  }
  if (!closing) await announceReady()
} catch (error) {
  // stopped (Ctrl-C, SIGTERM) while the demo's reference app was being installed: the shutdown is under way
  if (!closing) throw error
}

/** The banner with the URLs and the demo logins, once everything the start does is done. */
async function announceReady (): Promise<void> {
  const logins = demo ? await demoLogins(app) : null
  console.log([
    '',
    'App Platform is ready.',
    '',
    `  Admin      ${adminUrl}   marketplace, developer portal, merchant admin, review queue`,
    ...(logins === null ? [] : [`  Store      ${logins.storeUrl}   the demo store`]),
    `  API docs   ${baseUrl}/docs`,
    `  API        ${baseUrl}`,
    `  Storefront ${storefrontUrl}`,
    ...(app.origins.perStoreHosts ? [`  Store API  ${app.origins.storefrontBareUrl}/store/<store>/api   every store's customer API, on the bare host`] : []),
    ...(reference === null ? [] : [`  Reference app ${reference.reference.urls.appUrl}   examples/reference-app, installed on the demo store`]),
    ...(logins === null
      ? []
      : ['', 'Demo logins (DEMO_SEED=false to start without the demo):', ...logins.logins.map((l) => `  ${l.role.padEnd(9)} ${l.email} / ${l.password}`)]),
    ''
  ].join('\n'))
  app.log.info({ ms: Math.round(performance.now() - started), baseUrl, adminUrl, storefrontUrl }, 'ready')
}
