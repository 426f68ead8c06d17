import t from 'tap'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { loadConfig, ConfigError, DEBIAN_CHROMIUM } from '../../server/config.ts'

t.test('loadConfig', async (t) => {
  t.test('uses the spec defaults', async (t) => {
    const config = loadConfig({}, { inMemory: true })
    t.equal(config.port, 3000)
    t.equal(config.webhookTimeoutMs, 10_000)
    t.same(config.webhookRetryScheduleSeconds, [30, 120, 480, 1920, 7200])
    t.equal(config.dataErasureDelaySeconds, 172_800)
    t.equal(config.rateLimitPerMinute, 60)
    t.equal(config.webhookDisableAfterFailures, 10)
    t.equal(config.deliveryLogRetentionDays, 30)
    t.equal(config.production, false)
    t.equal(config.processRole, 'all')
    t.equal(config.dataDir, null, 'in-memory database for tests')
    t.equal(config.encryptionKey.length, 32)
    t.equal(config.storefrontRateLimitPerMinute, 60)
    t.equal(config.trustProxy, false, 'the socket address by default: a client cannot forge its own')
    t.equal(config.appApiCacheBytes, 32 * 1024 * 1024)
    t.equal(config.databasePoolSize, 10)
  })

  t.test('CHECKS_BROWSER_PATH: unset finds Debian\'s Chromium by itself, `off` skips the bridge check', async (t) => {
    const chromium = fileURLToPath(import.meta.url)
    t.equal(loadConfig({}, { inMemory: true, debianChromium: chromium }).checksBrowserPath, chromium, 'the browser where Debian installs it')
    t.equal(loadConfig({}, { inMemory: true, debianChromium: '/nonexistent/chromium' }).checksBrowserPath, null, 'none installed: the check is skipped')
    t.equal(loadConfig({ CHECKS_BROWSER_PATH: 'off' }, { inMemory: true, debianChromium: chromium }).checksBrowserPath, null)
    t.equal(loadConfig({ CHECKS_BROWSER_PATH: chromium }, { inMemory: true, debianChromium: '/nonexistent/chromium' }).checksBrowserPath, chromium)
    t.equal(DEBIAN_CHROMIUM, '/usr/bin/chromium')
  })

  t.test('TRUST_PROXY: a boolean or proxy addresses', async (t) => {
    t.equal(loadConfig({ TRUST_PROXY: 'true' }, { inMemory: true }).trustProxy, true)
    t.equal(loadConfig({ TRUST_PROXY: 'false' }, { inMemory: true }).trustProxy, false)
    t.equal(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }, { inMemory: true }).trustProxy, '10.0.0.0/8,127.0.0.1')
    t.equal(loadConfig({ APP_API_CACHE_MB: '0' }, { inMemory: true }).appApiCacheBytes, 0)
    t.equal(loadConfig({ DATABASE_POOL_SIZE: '40' }, { inMemory: true }).databasePoolSize, 40)
  })

  t.test('reads and converts values', async (t) => {
    const config = loadConfig({ PORT: '8080', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2.5,3', PLATFORM_ENV: 'production', BASE_URL: 'https://api.example.com/' }, { inMemory: true })
    t.equal(config.port, 8080)
    t.same(config.webhookRetryScheduleSeconds, [1, 2.5, 3])
    t.equal(config.production, true)
    t.equal(config.baseUrl, 'https://api.example.com', 'trailing slash removed')
    t.equal(config.adminUrl, 'https://api.example.com', 'admin URL defaults to the base URL')
  })

  const bad: Array<[string, Record<string, string>, RegExp]> = [
    ['a port that is not a number', { PORT: 'eighty' }, /^Invalid configuration: PORT="eighty"/],
    ['a port out of range', { PORT: '70000' }, /PORT="70000"/],
    ['an unknown environment', { PLATFORM_ENV: 'staging' }, /PLATFORM_ENV="staging"/],
    ['a malformed retry schedule', { WEBHOOK_RETRY_SCHEDULE_SECONDS: '30,,120' }, /WEBHOOK_RETRY_SCHEDULE_SECONDS/],
    ['a database URL of another engine', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    ['a short JWT secret', { JWT_SECRET: 'short' }, /JWT_SECRET/],
    ['a reviewer without password', { REVIEWER_EMAIL: 'r@example.com' }, /REVIEWER_PASSWORD is required/],
    ['a zero rate limit', { RATE_LIMIT_PER_MINUTE: '0' }, /RATE_LIMIT_PER_MINUTE/],
    ['a zero storefront rate limit', { STOREFRONT_RATE_LIMIT_PER_MINUTE: '0' }, /STOREFRONT_RATE_LIMIT_PER_MINUTE/],
    ['a trust-proxy setting that is none of the forms', { TRUST_PROXY: 'yes please' }, /TRUST_PROXY/],
    ['a negative cache size', { APP_API_CACHE_MB: '-1' }, /APP_API_CACHE_MB/],
    ['a pool of one connection', { DATABASE_POOL_SIZE: '1' }, /DATABASE_POOL_SIZE/]
  ]
  for (const [name, env, pattern] of bad) {
    t.test(`refuses ${name}`, async (t) => {
      const error = t.throws(() => loadConfig(env, { inMemory: true }), pattern)
      t.ok(error instanceof ConfigError, 'a ConfigError')
    })
  }

  t.test('requires shared secrets with a PostgreSQL server', async (t) => {
    t.throws(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' }), /JWT_SECRET is required/)
    t.throws(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x', JWT_SECRET: 'x'.repeat(32) }), /ENCRYPTION_KEY/)
  })
})

t.test('the process stops on a bad value with one line naming the variable', async (t) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, PORT: 'abc' },
    encoding: 'utf8',
    timeout: 30_000
  })
  t.equal(result.status, 1)
  const lines = result.stderr.trim().split('\n')
  t.equal(lines.length, 1, result.stderr)
  t.match(lines[0], /^Invalid configuration: PORT="abc"/)
})
