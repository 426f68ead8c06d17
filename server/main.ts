import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import closeWithGrace from 'close-with-grace'
import { loadConfig, ConfigError } from './config.ts'
import { buildApp } from './app.ts'
import { ensureUiBuilt } from './build-ui.ts'
import { seedDemo } from './seed.ts'

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

await ensureUiBuilt()
const app = await buildApp({ config })
// The storefront's own listener (DESIGN §14): the same app, which serves only the stores there.
const storefront = createServer({ requestTimeout: 30_000 }, app.storefront.handler)

closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
  if (err !== undefined) app.log.error({ err }, 'closing after an error')
  else app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight work')
  const storefrontClosed = new Promise((resolve) => storefront.close(resolve))
  storefront.closeIdleConnections()
  await Promise.all([app.close(), storefrontClosed])
})

if (config.demoSeed && config.databaseUrl === null) {
  const logins = await seedDemo(app)
  if (logins !== null) {
    app.log.info('demo data created')
    console.log(['', 'Demo logins (DEMO_SEED=false to skip):', ...logins.map((l) => `  ${l.role.padEnd(9)} ${l.email} / ${l.password}`), ''].join('\n'))
  }
}

await app.listen({ port: config.port, host: config.host })
storefront.listen(config.storefrontPort, config.host)
await once(storefront, 'listening')
app.origins.listening({ api: (app.server.address() as AddressInfo).port, storefront: (storefront.address() as AddressInfo).port })
const { baseUrl, adminUrl, storefrontUrl } = app.origins
console.log(['', `API        ${baseUrl}`, `Admin      ${adminUrl}`, `Storefront ${storefrontUrl}`, ''].join('\n'))
app.log.info({ ms: Math.round(performance.now() - started), baseUrl, adminUrl, storefrontUrl }, 'ready')
