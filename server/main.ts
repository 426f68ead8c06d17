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

closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
  if (err !== undefined) app.log.error({ err }, 'closing after an error')
  else app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight work')
  await app.close()
})

if (config.demoSeed && config.databaseUrl === null) {
  const logins = await seedDemo(app)
  if (logins !== null) {
    app.log.info('demo data created')
    console.log(['', 'Demo logins (DEMO_SEED=false to skip):', ...logins.map((l) => `  ${l.role.padEnd(9)} ${l.email} / ${l.password}`), ''].join('\n'))
  }
}

await app.listen({ port: config.port, host: config.host })
app.log.info({ ms: Math.round(performance.now() - started), baseUrl: config.baseUrl }, 'ready')
