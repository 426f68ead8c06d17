import t from 'tap'
import pg from 'pg'
import { build, registerUser, until, SERVER_URL } from '../helper.ts'

/** Long enough for the start-up's own queries on a busy machine, short enough for the test. */
const ACQUIRE_TIMEOUT_MS = 1500
const POOL_SIZE = 4

t.test('a request that gets no database connection within DATABASE_ACQUIRE_TIMEOUT_MS is a 503', { skip: SERVER_URL === null ? 'the pool is PostgreSQL\'s (DATABASE_URL)' : false }, async (t) => {
  const app = await build(t, { env: { DATABASE_POOL_SIZE: String(POOL_SIZE), DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS) } })
  const merchant = await registerUser(app, 'MERCHANT')
  const stats = app.database.poolStats!

  // every connection busy until the test lets them go
  const held = Array.from({ length: POOL_SIZE }, async () => await app.database.executeSql('select pg_sleep(30)').then(() => 'slept', () => 'cancelled'))
  await until(async () => stats().inUse, (inUse) => inUse === POOL_SIZE)

  const busy = await app.inject({ url: '/merchant/products', headers: merchant.auth })
  t.equal(busy.statusCode, 503, `no connection within ${ACQUIRE_TIMEOUT_MS} ms: 503`)
  t.same(busy.json(), { statusCode: 503, error: 'Service Unavailable', message: 'The service is busy; retry shortly', code: 'service_busy' }, 'the error format, no internals')
  t.equal(busy.headers['retry-after'], '1', 'with Retry-After')

  // let them go: cancel the sleeps from a connection of their own
  const url = new URL(app.config.databaseUrl as string)
  const admin = new pg.Client({ connectionString: url.toString() })
  await admin.connect()
  await admin.query("select pg_cancel_backend(pid) from pg_stat_activity where datname = $1 and query = 'select pg_sleep(30)'", [url.pathname.slice(1)])
  await admin.end()
  t.same(await Promise.all(held), Array(POOL_SIZE).fill('cancelled'), 'the held connections were let go')
  t.equal((await app.inject({ url: '/merchant/products', headers: merchant.auth })).statusCode, 200, 'answers again once a connection is free')
})
