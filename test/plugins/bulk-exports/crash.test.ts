import t from 'tap'
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { build, until } from '../../helper.ts'
import { SERVER_URL, testDatabaseUrl } from '../../database.ts'
import { freePort, startServer, stopServer } from '../../process.ts'
import { rows } from '../../../server/db/rows.ts'
import { call, installApp } from '../app-api/fixtures.ts'
import { download, finishedExport, startExport } from './helpers.ts'

/** Orders enough that the export is still running when the test kills its process (seconds, not milliseconds). */
const ORDERS = 150_000

/**
 * A worker process killed with SIGKILL in the middle of an export (its transaction and its advisory lock
 * go with its connection): the next worker to start finds the run orphaned and begins it again, and the
 * export ends COMPLETED with a whole file, never stuck RUNNING. On PostgreSQL, where the test and the
 * killed process share the database; PGlite's one process cannot be killed under a test that reads it.
 */
t.test('a worker killed during an export: the next start runs it again to the end', { skip: SERVER_URL === null ? 'needs the PostgreSQL server (DATABASE_URL)' : false }, async (t) => {
  const databaseUrl = await testDatabaseUrl(t) as string
  // this process serves the App API only: the export runs in the worker started below
  const app = await build(t, { databaseUrl, env: { PROCESS_ROLE: 'web' } })
  const installed = await installApp(app, ['read_orders'])
  const [order] = await rows(app.db, sql<{ id: string }>`select id from orders where business_id = ${installed.businessId} limit 1`)
  await app.db.execute(sql`insert into orders (id, business_id, order_number, status, items, subtotal, delivery_fee, discount, amount, currency,
      delivery_method, payment_method, payment_status, customer, address, created_at, updated_at)
    select 'ord_many_' || g, business_id, 'M' || g, status, items, subtotal, delivery_fee, discount, amount + g, currency,
      delivery_method, payment_method, payment_status, customer, md5(g::text), created_at, updated_at
    from orders, generate_series(1, ${ORDERS}) as g where id = ${order.id}`)
  const [{ total }] = await rows(app.db, sql<{ total: number }>`select count(*)::int as total from orders where business_id = ${installed.businessId}`)

  const started = await startExport(app, installed, { resource: 'orders' })
  const env = {
    DATABASE_URL: databaseUrl, PROCESS_ROLE: 'worker', DEMO_SEED: 'false', SYNC_SETTLE_SECONDS: '0',
    JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex')
  }
  const first = await startServer({ ...env, PORT: String(await freePort()) })
  t.teardown(async () => { await stopServer(first) })
  const claimed = await until(async () => (await rows(app.db, sql<{ status: string, attempts: number, claimed: boolean }>`
    select status, attempts, claimed_at is not null as claimed from bulk_exports where id = ${started.id}`))[0], (row) => row.claimed || row.status !== 'RUNNING')
  first.child.kill('SIGKILL')
  await new Promise((resolve) => first.child.once('exit', resolve))
  t.same(claimed, { status: 'RUNNING', attempts: 1, claimed: true }, 'killed while its run was under way')
  const [{ pieces }] = await rows(app.db, sql<{ pieces: number }>`select count(*)::int as pieces from bulk_export_chunks where export_id = ${started.id}`)
  t.equal(pieces, 0, 'the killed run\'s pieces went with its transaction')

  const second = await startServer({ ...env, PORT: String(await freePort()) })
  t.teardown(async () => { await stopServer(second) })
  const done = await finishedExport(app, installed, started.id)
  t.equal(done.status, 'COMPLETED', done.error ?? '')
  t.equal(done.rowCount, total)
  const [{ attempts }] = await rows(app.db, sql<{ attempts: number }>`select attempts from bulk_exports where id = ${started.id}`)
  t.equal(attempts, 2, 'begun again once')
  const file = await download(app, done)
  t.equal(file.sha256, done.sha256)
  t.equal(file.lines.length, total)
  t.equal(new Set(file.lines.map((line) => line.id)).size, total, 'every order once')
  t.equal((await call(app, installed, 'GET', '/app-api/bulk-exports/' + started.id)).json().status, 'COMPLETED')
})
