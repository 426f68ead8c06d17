import t, { type Test } from 'tap'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { build, registerUser, until, SERVER_URL, portsOf } from '../helper.ts'
import { call, installApp } from '../plugins/app-api/fixtures.ts'
import { deliveriesInsert, ordersInsert, reviewsInsert } from '../../bench/growth-seed.ts'
import { LOG_TOTAL_CAP, deleteInBatches, rows } from '../../server/db/rows.ts'
import { createFairness } from '../../plugins/app-api/fairness.ts'
import type { App } from '../../server/app.ts'

/**
 * #28 item 7: the figures the database keeps (list totals, review counts, the dashboard's days) stay
 * equal to what the raw rows say through every kind of change, the lists page correctly on them, and
 * a slow query or a greedy business gets a clear answer instead of freezing the process.
 */

/** Rows where the kept figures and a count of the raw rows disagree (zero rows kept count as absent). */
async function disagreements (app: App) {
  return await rows(app.db, sql<{ kind: string, side: string, detail: string }>`
    with kept_lists as (select business_id, list, key, n from list_counts where n <> 0),
    raw_lists as (
      select o.business_id, 'orders' as list, k.key, count(*)::bigint as n from orders o, lateral (values (''), ('status:' || o.status)) as k(key) group by 1, 3
      union all
      select p.business_id, 'products', k.key, count(*)::bigint from products p, lateral (values (''), ('category:' || p.category)) as k(key) group by 1, 3),
    kept_reviews as (select business_id, product_id, rating, n from review_counts where n <> 0),
    raw_reviews as (select r.business_id, k.product_id, r.rating, count(*)::bigint as n from reviews r, lateral (values (''), (r.product_id)) as k(product_id) group by 1, 2, 3),
    kept_days as (select business_id, day, status, orders, revenue from order_days where orders <> 0),
    raw_days as (select o.business_id, (o.created_at at time zone b.timezone)::date as day, o.status, count(*)::bigint as orders, sum(o.amount)::bigint as revenue
      from orders o join businesses b on b.id = o.business_id group by 1, 2, 3),
    kept_products as (select business_id, day, product_id, quantity, revenue from product_days where quantity <> 0),
    raw_products as (select o.business_id, (o.created_at at time zone b.timezone)::date as day, i.item->>'productId' as product_id,
        sum((i.item->>'quantity')::bigint)::bigint as quantity, sum((i.item->>'total')::bigint)::bigint as revenue
      from orders o join businesses b on b.id = o.business_id cross join lateral jsonb_array_elements(o.items) as i(item)
      where o.status <> 'CANCELLED' group by 1, 2, 3)
    select 'list' as kind, 'kept' as side, row(x.*)::text as detail from (select * from kept_lists except select * from raw_lists) x
    union all select 'list', 'raw', row(x.*)::text from (select * from raw_lists except select * from kept_lists) x
    union all select 'reviews', 'kept', row(x.*)::text from (select * from kept_reviews except select * from raw_reviews) x
    union all select 'reviews', 'raw', row(x.*)::text from (select * from raw_reviews except select * from kept_reviews) x
    union all select 'days', 'kept', row(x.*)::text from (select * from kept_days except select * from raw_days) x
    union all select 'days', 'raw', row(x.*)::text from (select * from raw_days except select * from kept_days) x
    union all select 'products', 'kept', row(x.*)::text from (select * from kept_products except select * from raw_products) x
    union all select 'products', 'raw', row(x.*)::text from (select * from raw_products except select * from kept_products) x`)
}

async function agree (t: Test, app: App, step: string) {
  t.same(await disagreements(app), [], `kept figures equal the raw rows: ${step}`)
}

async function productIdsOf (app: App, businessId: string): Promise<string[]> {
  return (await rows(app.db, sql<{ id: string }>`select id from products where business_id = ${businessId} order by id`)).map((row) => row.id)
}

t.test('kept totals, review counts and dashboard days follow every change of the rows', async (t) => {
  const app = await build(t)
  const installed = await installApp(app)
  const business = installed.businessId
  await agree(t, app, 'the sample data of a new sandbox (migration backfill and triggers on single inserts)')

  const products = await productIdsOf(app, business)
  await app.db.execute(ordersInsert({ businessId: business, productIds: products, count: 300, days: 40, tag: 'ord_bulk' }))
  await app.db.execute(reviewsInsert({ businessId: business, productIds: products, count: 120, days: 40, tag: 'rev_bulk' }))
  await agree(t, app, 'a bulk insert of 300 orders and 120 reviews in one statement each')

  // ids are random, so the first one may be the sample's sold-out product: order one that is in stock
  const [inStock] = await rows(app.db, sql<{ id: string }>`select id from products where business_id = ${business} and is_available and stock >= 2 order by id limit 1`)
  const created = await call(app, installed, 'POST', '/app-api/orders', { items: [{ productId: inStock.id, quantity: 2 }], customer: { name: 'Ann' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' })
  t.equal(created.statusCode, 201, 'an order through the checkout')
  const order = created.json()
  t.equal((await call(app, installed, 'PATCH', `/app-api/orders/${order.id}/status`, { status: 'CANCELLED' })).statusCode, 200)
  await agree(t, app, 'an order placed and cancelled through the API')

  await app.db.execute(sql`update orders set status = 'CANCELLED' where business_id = ${business} and id like 'ord_bulk_%' and status = 'PENDING'`)
  await app.db.execute(sql`update orders set created_at = created_at - interval '3 days', amount = amount + 1 where business_id = ${business} and id like 'ord_bulk_1%'`)
  await app.db.execute(sql`update orders set payment_status = 'COMPLETED' where business_id = ${business}`)
  await agree(t, app, 'bulk status, date and amount changes (and a change that moves no figure)')

  await app.db.execute(sql`delete from orders where business_id = ${business} and id like 'ord_bulk_2%'`)
  await app.db.execute(sql`delete from reviews where business_id = ${business} and rating = 5`)
  await app.db.execute(sql`update reviews set rating = 1 where business_id = ${business} and rating = 2`)
  await app.db.execute(sql`update products set category = 'Moved' where id = ${products[0]}`)
  await agree(t, app, 'bulk deletes, a rating change and a product moved to another category')

  await app.db.execute(sql`update businesses set timezone = 'Pacific/Kiritimati' where id = ${business}`)
  await agree(t, app, 'the business moved to another time zone (its days rebuilt)')

  const merchant = await registerUser(app, 'MERCHANT')
  const product = await app.inject({ method: 'POST', url: '/merchant/products', headers: merchant.auth, payload: { name: 'Tea', price: 400, stock: 5 } })
  await app.db.execute(ordersInsert({ businessId: merchant.businessId, productIds: [product.json().id], count: 50, days: 5, tag: 'ord_gone' }))
  await agree(t, app, 'a second business')
  await app.db.execute(sql`delete from products where business_id = ${merchant.businessId}`)
  await app.db.execute(sql`delete from orders where business_id = ${merchant.businessId}`)
  t.same(await rows(app.db, sql`select * from list_counts where business_id = ${merchant.businessId} and n <> 0`), [], 'an erased business\'s data leaves no count behind')
  await agree(t, app, 'after erasing the second business\'s data')

  const stats = (await call(app, installed, 'GET', '/app-api/reviews/stats')).json()
  const [raw] = await rows(app.db, sql<{ n: number, average: string }>`select count(*)::int as n, round(avg(rating), 2)::text as average from reviews where business_id = ${business}`)
  t.equal(stats.totalReviews, raw.n, 'review stats: the total')
  t.equal(stats.averageRating, Number(raw.average), 'review stats: the average, rounded as avg() is')
})

t.test('keyset-free deep pages of the App API lists: every row once, in order, with the kept total', async (t) => {
  const app = await build(t)
  const installed = await installApp(app)
  const business = installed.businessId
  const products = await productIdsOf(app, business)
  // days 0: every seeded order has the same created_at, so the order rests on the id tie-break
  await app.db.execute(ordersInsert({ businessId: business, productIds: products, count: 137, days: 0, tag: 'ord_tie' }))
  const expected = (await rows(app.db, sql<{ id: string }>`select id from orders where business_id = ${business} order by created_at desc, id asc`)).map((row) => row.id)

  const walk = async (query: string) => {
    const seen: string[] = []
    for (let page = 1; ; page++) {
      const response = await call(app, installed, 'GET', `/app-api/orders?limit=50&page=${page}${query}`)
      t.equal(response.statusCode, 200)
      const body = response.json()
      if (body.data.length === 0) return { seen, total: body.total, pages: page - 1 }
      seen.push(...body.data.map((row: { id: string }) => row.id))
    }
  }
  const all = await walk('')
  t.same(all.seen, expected, 'every order once, newest first, ties by id')
  t.equal(all.total, expected.length, 'the total of a page past the end')
  t.equal(all.pages, Math.ceil(expected.length / 50))

  const delivered = await walk('&status=DELIVERED')
  const expectedDelivered = (await rows(app.db, sql<{ id: string }>`select id from orders where business_id = ${business} and status = 'DELIVERED' order by created_at desc, id asc`)).map((row) => row.id)
  t.same(delivered.seen, expectedDelivered, 'filtered by status: the status index, in the same order')
  t.equal(delivered.total, expectedDelivered.length)

  await app.db.execute(sql`delete from orders where business_id = ${business} and id in ('ord_tie_1', 'ord_tie_2', 'ord_tie_3')`)
  const first = (await call(app, installed, 'GET', '/app-api/orders?limit=5')).json()
  t.equal(first.total, expected.length - 3, 'the total follows a delete at once')
  const reviews = (await call(app, installed, 'GET', '/app-api/reviews?limit=1')).json()
  const [{ n }] = await rows(app.db, sql<{ n: number }>`select count(*)::int as n from reviews where business_id = ${business}`)
  t.equal(reviews.total, n, 'the review list\'s total')
  const byProduct = (await call(app, installed, 'GET', `/app-api/reviews?productId=${products[0]}`)).json()
  const [{ m }] = await rows(app.db, sql<{ m: number }>`select count(*)::int as m from reviews where business_id = ${business} and product_id = ${products[0]}`)
  t.equal(byProduct.total, m, 'the review list of one product')
  const productList = (await call(app, installed, 'GET', '/app-api/products?limit=1')).json()
  t.equal(productList.total, products.length, 'the product list\'s total')
})

t.test('fairness: one business runs at most its share at once, the others wait their turn, then 503 or 429', async (t) => {
  const fairness = createFairness({ perBusiness: 2, waitMs: 200, queueLimit: 1 })
  const a1 = await fairness.acquire('a')
  const a2 = await fairness.acquire('a')
  const b1 = await fairness.acquire('b')
  t.same(fairness.load('a'), { running: 2, waiting: 0 }, 'two of business a at once')
  const third = fairness.acquire('a')
  await until(async () => fairness.load('a').waiting, (n) => n === 1)
  const refused = await fairness.acquire('a').then(() => null, (error: { statusCode: number, headers: Record<string, string> }) => error)
  t.match(refused, { statusCode: 429, headers: { 'retry-after': '1' } }, 'a full queue: 429 at once')
  a1()
  a1()
  const a3 = await third
  t.same(fairness.load('a'), { running: 2, waiting: 0 }, 'a finished request handed its turn over (a second release is ignored)')
  const late = await fairness.acquire('a').then(() => null, (error: { statusCode: number, message: string }) => error)
  t.match(late, { statusCode: 503, message: 'The service is busy; retry shortly' }, 'no turn within waitMs: 503')
  a2()
  a3()
  b1()
  t.same([fairness.load('a'), fairness.load('b')], [{ running: 0, waiting: 0 }, { running: 0, waiting: 0 }], 'nothing left behind')
})

t.test('fairness in the App API: a business over its share waits, another business is served meanwhile', { skip: SERVER_URL === null ? 'PGlite runs one query at a time anyway; the pool is PostgreSQL\'s' : false }, async (t) => {
  const app = await build(t, { env: { APP_API_BUSINESS_CONCURRENCY: '1', DATABASE_ACQUIRE_TIMEOUT_MS: '1500' } })
  const greedy = await installApp(app)
  const other = await installApp(app)
  // the greedy business's one turn is held by a list that waits on a lock the test holds
  const url = new URL(app.config.databaseUrl as string)
  const admin = new pg.Client({ connectionString: url.toString() })
  await admin.connect()
  t.teardown(() => admin.end())
  await admin.query('begin')
  await admin.query('lock table orders in access exclusive mode')
  const held = call(app, greedy, 'GET', '/app-api/orders')
  await until(async () => (await admin.query("select count(*)::int as n from pg_locks where relation = 'orders'::regclass and not granted")).rows[0].n, (n) => n > 0)
  const waited = await call(app, greedy, 'GET', '/app-api/business')
  t.equal(waited.statusCode, 503, 'the greedy business\'s next request found no turn in time')
  t.equal(waited.headers['retry-after'], '1')
  t.equal((await call(app, other, 'GET', '/app-api/business')).statusCode, 200, 'another business is served while the greedy one waits')
  await admin.query('rollback')
  t.equal((await held).statusCode, 200, 'the held list finishes once the lock is gone')
  t.equal((await call(app, greedy, 'GET', '/app-api/business')).statusCode, 200, 'and the business has its turn again')
})

t.test('a query past DATABASE_STATEMENT_TIMEOUT_MS is cancelled: 503 with Retry-After, no internals', { skip: SERVER_URL === null ? 'PGlite has no statement_timeout (no timers in its single WebAssembly thread)' : false }, async (t) => {
  const app = await build(t, { env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const url = new URL(app.config.databaseUrl as string)
  const admin = new pg.Client({ connectionString: url.toString() })
  await admin.connect()
  t.teardown(() => admin.end())
  await admin.query('begin')
  await admin.query('lock table orders in access exclusive mode')
  const slow = await app.inject({ url: '/merchant/orders', headers: merchant.auth })
  await admin.query('rollback')
  t.equal(slow.statusCode, 503, 'cancelled by the server after 300 ms')
  t.same(slow.json(), { statusCode: 503, error: 'Service Unavailable', message: 'The service is busy; retry shortly', code: 'service_busy' }, 'the error format, no internals')
  t.equal(slow.headers['retry-after'], '1')
  t.equal((await app.inject({ url: '/merchant/orders', headers: merchant.auth })).statusCode, 200, 'the same list answers once nothing holds it up')
})

t.test('the retention prune deletes in batches exactly the rows past the retention; the console log counts up to its cap', async (t) => {
  const app = await build(t)
  const installed = await installApp(app)
  const [webhook] = await rows(app.db, sql<{ id: string }>`select id from webhooks where installation_id = ${installed.installationId} limit 1`)
  const seed = { appId: installed.appId, installationId: installed.installationId, webhookId: webhook.id, businessId: installed.businessId }
  // 500 deliveries over the last 60 days: the older half is past the 30-day retention (one in 50 still PENDING)
  await app.db.execute(deliveriesInsert({ ...seed, count: 500, days: 60, tag: 'dlv_old' }))
  const counted = async () => (await rows(app.db, sql<{ old: number, oldPending: number, young: number, attempts: number, orphans: number }>`select
    count(*) filter (where created_at < now() - interval '30 days' and status <> 'PENDING')::int as old,
    count(*) filter (where created_at < now() - interval '30 days' and status = 'PENDING')::int as "oldPending",
    count(*) filter (where created_at >= now() - interval '30 days')::int as young,
    (select count(*)::int from webhook_attempts where created_at < now() - interval '30 days') as attempts,
    (select count(*)::int from webhook_attempts a where not exists (select 1 from webhook_deliveries d where d.id = a.delivery_id)) as orphans
    from webhook_deliveries where app_id = ${installed.appId}`))[0]
  const before = await counted()
  t.ok(before.old > 200 && before.oldPending > 0 && before.young > 200, 'old, old pending and young deliveries to begin with')

  t.equal(await deleteInBatches(app.db, 'webhook_attempts', 'id', sql`created_at < now() - interval '30 days'`, 7), before.attempts,
    'batches of 7: every old attempt, counted across the batches')
  const pruned = await portsOf(app).webhooks.delivery.prune()
  t.equal(pruned.deliveries, before.old, 'the prune took every finished delivery past the retention')
  const after = await counted()
  t.same(after, { old: 0, oldPending: before.oldPending, young: before.young, attempts: 0, orphans: 0 },
    'nothing younger and no pending delivery went; no attempt was left without its delivery')

  await app.db.execute(deliveriesInsert({ ...seed, count: LOG_TOTAL_CAP + 20, days: 1, tag: 'dlv_many' }))
  const log = await app.inject({ url: `/developer/apps/${installed.appId}/deliveries?limit=5`, headers: installed.developer.auth })
  t.equal(log.statusCode, 200)
  t.equal(log.json().total, LOG_TOTAL_CAP, 'a log bigger than the cap says the cap')
  const failed = await app.inject({ url: `/developer/apps/${installed.appId}/deliveries?status=FAILED&limit=5`, headers: installed.developer.auth })
  const [{ n }] = await rows(app.db, sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where app_id = ${installed.appId} and status = 'FAILED'`)
  t.equal(failed.json().total, Math.min(n, LOG_TOTAL_CAP), 'a filter under the cap is counted exactly')
  t.ok(failed.json().data.every((row: { status: string }) => row.status === 'FAILED'))
})
