import t from 'tap'
import { sql } from 'drizzle-orm'
import { build, portsOf, until } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { rows } from '../../../server/db/rows.ts'
import { receiver } from '../webhooks/helpers.ts'
import { call, installApp, testUninstall } from '../app-api/fixtures.ts'
import { download, finishedExport, pathOf, startExport, type ExportAnswer } from './helpers.ts'
import type { App } from '../../../server/app.ts'

const FULL_SYNC = '1970-01-01T00:00:00Z'

async function chunksOf (app: App, exportId: string): Promise<number> {
  const [{ n }] = await rows(app.db, sql<{ n: number }>`select count(*)::int as n from bulk_export_chunks where export_id = ${exportId}`)
  return n
}

t.test('a bulk export of orders: 202 RUNNING, then COMPLETED with a file whose lines, size and sha256 match its answer', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_orders', 'read_products', 'read_reviews'])
  const list = (await call(app, installed, 'GET', `/app-api/orders?updatedSince=${FULL_SYNC}&limit=50`)).json()

  const started = await startExport(app, installed, { resource: 'orders' })
  t.match(started, { id: /^bex_/, status: 'RUNNING', resource: 'orders', updatedSince: null, url: null, rowCount: null, sha256: null, error: null })
  const done = await finishedExport(app, installed, started.id)
  t.equal(done.status, 'COMPLETED', done.error ?? '')
  t.match(done, { url: /\/bulk-exports\/bex_\w+\/download\?expires=\d+&signature=[0-9a-f]{64}$/, sha256: /^[0-9a-f]{64}$/, finishedAt: String })
  t.ok(Date.parse(done.expiresAt as string) - Date.now() > 50 * 60_000, 'the link is valid about an hour')
  const file = await download(app, done)
  t.equal(file.response.headers['content-type'], 'application/gzip')
  t.notOk(file.response.headers['content-encoding'], 'the gzip file itself, not a compressed transfer')
  t.equal(file.size, done.sizeBytes)
  t.equal(file.sha256, done.sha256)
  t.equal(file.lines.length, done.rowCount)
  t.ok(file.endsWithNewline)
  t.same(file.lines.slice(0, list.data.length), list.data, 'each line is the record as the list in cursor mode shows it, in the same order')

  // updatedSince narrows it, inclusively
  const last = file.lines.at(-1) as { updatedAt: string }
  const since = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'orders', updatedSince: last.updatedAt })).id)
  t.equal(since.updatedSince, last.updatedAt)
  const narrowed = await download(app, since)
  t.ok(narrowed.lines.length >= 1 && narrowed.lines.every((line) => line.updatedAt >= last.updatedAt))

  const reviews = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'reviews' })).id)
  const reviewLines = (await download(app, reviews)).lines
  t.equal(reviewLines.length, reviews.rowCount)
  t.same(Object.keys(reviewLines[0]).sort(), ['authorName', 'createdAt', 'id', 'productId', 'rating', 'text', 'updatedAt'])
})

t.test('a 2026-11 and a 2026-12 installation each get their own shapes', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_products', 'read_orders'])
  const exportIn = async (version: string, resource: string) => {
    const response = await app.inject({ method: 'POST', url: '/app-api/bulk-exports', headers: { ...installed.auth, 'app-api-version': version }, payload: { resource } })
    t.equal(response.statusCode, 202)
    const done = await finishedExport(app, installed, response.json().id)
    t.equal(done.apiVersion, version)
    return (await download(app, done)).lines
  }
  const [products11] = await exportIn('2026-11', 'products')
  const [products12] = await exportIn('2026-12', 'products')
  t.type(products11.price, 'number', '2026-11: plain integers')
  t.match(products12.price, { amount: products11.price, currency: /^[A-Z]{3}$/ }, '2026-12: money objects')
  const [orders11] = await exportIn('2026-11', 'orders')
  const [orders12] = await exportIn('2026-12', 'orders')
  t.type(orders11.amount, 'number')
  t.type(orders11.items[0].unitPrice, 'number')
  t.match(orders12.amount, { amount: orders11.amount, currency: orders11.currency })
  t.match(orders12.items[0].unitPrice, { amount: orders11.items[0].unitPrice })
  const listed = await app.inject({ method: 'GET', url: `/app-api/products?updatedSince=${FULL_SYNC}&limit=1`, headers: { ...installed.auth, 'app-api-version': '2026-11' } })
  t.same(products11, listed.json().data[0], 'a line is the list\'s record in that version')
})

t.test('bulk_export.finished reaches the app\'s webhook URL, whatever its subscriptions', async (t) => {
  const app = await build(t)
  const hooks = await receiver(t)
  const installed = await installApp(app, ['read_products'], undefined, { webhookUrl: hooks.url })
  const done = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'products' })).id)
  const [delivery] = await hooks.waitFor(1)
  const body = JSON.parse(delivery.body)
  t.equal(body.event, 'bulk_export.finished')
  t.same(body.data, { exportId: done.id, resource: 'products', status: 'COMPLETED', rowCount: done.rowCount })
})

t.test('bad requests: an unknown resource, a malformed updatedSince, a missing scope, a second export while one runs, another installation\'s export', async (t) => {
  // a web process only: the export stays RUNNING, nobody runs it
  const app = await build(t, { env: { PROCESS_ROLE: 'web' } })
  const installed = await installApp(app, ['read_orders'])
  const other = await installApp(app, ['read_orders'], installed.developer)
  t.equal(other.businessId, installed.businessId, 'the same business, another installation')

  const refused = async (body: unknown, status: number, code: string) => {
    const response = await call(app, installed, 'POST', '/app-api/bulk-exports', body)
    t.equal(response.statusCode, status, JSON.stringify(body))
    t.equal(response.json().code, code)
  }
  await refused({ resource: 'customers' }, 400, 'validation_failed')
  await refused({}, 400, 'validation_failed')
  await refused({ resource: 'orders', updatedSince: 'last tuesday' }, 400, 'updated_since_invalid')
  await refused({ resource: 'orders', extra: 1 }, 400, 'validation_failed')
  await refused({ resource: 'products' }, 403, 'scope_missing')

  const running = await startExport(app, installed, { resource: 'orders' })
  await refused({ resource: 'orders' }, 409, 'bulk_export_running')
  t.equal((await call(app, other, 'POST', '/app-api/bulk-exports', { resource: 'orders' })).statusCode, 202, 'one running per installation, not per business')

  for (const id of [running.id, 'bex_unknown']) {
    const response = await call(app, other, 'GET', `/app-api/bulk-exports/${id}`)
    t.equal(response.statusCode, 404)
    t.equal(response.json().code, 'bulk_export_not_found')
  }
  t.equal((await app.inject({ method: 'GET', url: `/app-api/bulk-exports/${running.id}` })).statusCode, 401, 'no token, no export')
  t.equal((await call(app, installed, 'GET', `/app-api/bulk-exports/${running.id}`)).json().status, 'RUNNING')
})

t.test('the download link: no token, signed, an hour; a missing, tampered or expired signature and a pruned export are refused', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { clock })
  const installed = await installApp(app, ['read_products'])
  const done = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'products' })).id)
  const url = new URL(done.url as string)
  const get = (path: string) => app.inject({ method: 'GET', url: path })
  const expires = url.searchParams.get('expires') as string
  const signature = url.searchParams.get('signature') as string

  t.equal((await get(pathOf(done.url as string))).statusCode, 200, 'no token needed')
  for (const [path, code] of [
    [url.pathname, 'bulk_export_link_invalid'],
    [`${url.pathname}?expires=${expires}`, 'bulk_export_link_invalid'],
    [`${url.pathname}?expires=${Number(expires) + 3600}&signature=${signature}`, 'bulk_export_link_invalid'],
    [`${url.pathname}?expires=${expires}&signature=${signature.replace(/^./, (c) => c === '0' ? '1' : '0')}`, 'bulk_export_link_invalid'],
    [`${url.pathname}?expires=abc&signature=${signature}`, 'bulk_export_link_invalid']
  ]) {
    const response = await get(path)
    t.equal(response.statusCode, 403, path)
    t.equal(response.json().code, code)
  }
  const another = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'products' })).id)
  const swapped = await get(`/bulk-exports/${another.id}/download?expires=${expires}&signature=${signature}`)
  t.equal(swapped.json().code, 'bulk_export_link_invalid', 'a signature is for its own export')

  clock.advance(3601_000)
  const expired = await get(pathOf(done.url as string))
  t.equal(expired.statusCode, 403)
  t.equal(expired.json().code, 'bulk_export_link_expired')
  const fresh = (await call(app, installed, 'GET', `/app-api/bulk-exports/${done.id}`)).json() as ExportAnswer
  t.equal((await get(pathOf(fresh.url as string))).statusCode, 200, 'each GET signs a fresh link')

  // kept 7 days
  t.equal(await portsOf(app).bulkExports.prune(), 0, 'nothing is old yet')
  await app.db.execute(sql`update bulk_exports set created_at = now() - interval '8 days' where id = ${done.id}`)
  t.equal(await portsOf(app).bulkExports.prune(), 1)
  t.equal(await chunksOf(app, done.id), 0, 'its file goes with it')
  t.equal((await call(app, installed, 'GET', `/app-api/bulk-exports/${done.id}`)).statusCode, 404)
  const gone = await get(pathOf(fresh.url as string))
  t.equal(gone.statusCode, 404)
  t.equal(gone.json().code, 'bulk_export_not_found')

  await testUninstall(app, installed)
  const [{ n }] = await rows(app.db, sql<{ n: number }>`select count(*)::int as n from bulk_exports where installation_id = ${installed.installationId}`)
  t.equal(n, 0, 'an uninstall takes the installation\'s exports')
})

t.test('an export that fails midway is FAILED with its error and leaves no partial file', async (t) => {
  const app = await build(t, { env: { BULK_EXPORT_CHUNK_BYTES: '1024' } })
  const hooks = await receiver(t)
  const installed = await installApp(app, ['read_orders'], undefined, { webhookUrl: hooks.url })
  // 3 000 more orders (three FETCHes, many pieces written), the last one unreadable
  const [order] = await rows(app.db, sql<{ id: string }>`select id from orders where business_id = ${installed.businessId} limit 1`)
  await app.db.execute(sql`insert into orders (id, business_id, order_number, status, items, subtotal, delivery_fee, discount, amount, currency,
      delivery_method, payment_method, payment_status, customer, address, created_at, updated_at)
    select 'ord_bulk_' || g, business_id, 'B' || g, status, items, subtotal + g, delivery_fee, discount, amount + g, currency,
      delivery_method, payment_method, payment_status, customer, md5(g::text), created_at, updated_at
    from orders, generate_series(1, 3000) as g where id = ${order.id}`)
  await app.db.execute(sql`update orders set customer = 'null'::jsonb where id = 'ord_bulk_3000'`)

  const failed = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'orders' })).id)
  t.equal(failed.status, 'FAILED')
  t.match(failed.error, /failed/)
  t.same([failed.url, failed.rowCount, failed.sha256, failed.sizeBytes], [null, null, null, null])
  t.equal(await chunksOf(app, failed.id), 0, 'no piece of the file is left')
  const [delivery] = await hooks.waitFor(1)
  t.same(JSON.parse(delivery.body).data, { exportId: failed.id, resource: 'orders', status: 'FAILED', rowCount: null })

  // mended, the next export runs (the failed one no longer counts as running)
  await app.db.execute(sql`update orders set customer = '{"name": "Mended", "phone": "+15550000000", "email": null}'::jsonb where id = 'ord_bulk_3000'`)
  const done = await finishedExport(app, installed, (await startExport(app, installed, { resource: 'orders' })).id)
  t.equal(done.status, 'COMPLETED')
  t.ok((done.rowCount as number) > 3000)
  t.ok(await chunksOf(app, done.id) > 3, 'stored in many pieces')
  const file = await download(app, done)
  t.equal(file.sha256, done.sha256, 'the pieces join into the file as answered')
  t.equal(file.lines.length, done.rowCount)
})

t.test('a run whose process stopped is begun again, or FAILED after two; a running one is left alone', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_products'])
  const { bulkExports } = portsOf(app)
  // what a killed process leaves: RUNNING, claimed a while ago, its advisory lock gone with its connection
  const orphan = async (id: string, attempts: number) => {
    await app.db.execute(sql`insert into bulk_exports (id, business_id, installation_id, app_id, resource, api_version, status, attempts, claimed_at)
      values (${id}, ${installed.businessId}, ${installed.installationId}, ${installed.appId}, 'products', '2026-11', 'RUNNING', ${attempts}, now() - interval '1 minute')`)
  }
  await orphan('bex_orphan1', 1)
  t.equal(await bulkExports.sweep(), 1)
  const rerun = await finishedExport(app, installed, 'bex_orphan1')
  t.equal(rerun.status, 'COMPLETED', 'begun again and finished')
  t.equal((await download(app, rerun)).lines.length, rerun.rowCount)

  await orphan('bex_orphan2', 2)
  t.equal(await bulkExports.sweep(), 1)
  const failed = (await call(app, installed, 'GET', '/app-api/bulk-exports/bex_orphan2')).json()
  t.equal(failed.status, 'FAILED')
  t.match(failed.error, /interrupted 2 times/)

  // a run whose process lives holds its lock: the sweep leaves it
  await orphan('bex_alive', 1)
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('bulk_export'), hashtext('bex_alive'))`)
    if (app.config.databaseUrl !== null) t.equal(await bulkExports.sweep(), 0, 'held by a live run')
  })
  t.equal(await bulkExports.sweep(), 1, 'once its lock is free, it is an orphan')
  t.equal((await finishedExport(app, installed, 'bex_alive')).status, 'COMPLETED')
  const [{ n }] = await rows(app.db, sql<{ n: number }>`select count(*)::int as n from bulk_exports where status = 'RUNNING'`)
  t.equal(n, 0, 'none stuck RUNNING')
})

t.test('a reviews export holds every review of the business', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_reviews'])
  const started = await startExport(app, installed, { resource: 'reviews' })
  const done = await until(async () => (await call(app, installed, 'GET', `/app-api/bulk-exports/${started.id}`)).json(), (answer) => answer.status === 'COMPLETED')
  t.equal(done.rowCount, (await call(app, installed, 'GET', '/app-api/reviews?limit=1')).json().total)
})
