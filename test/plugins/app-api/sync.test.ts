import t from 'tap'
import { sql } from 'drizzle-orm'
import { build, portsOf } from '../../helper.ts'
import { call, installApp, type Installed } from './fixtures.ts'
import type { App } from '../../../server/app.ts'

const FULL_SYNC = '1970-01-01T00:00:00Z'

interface Record_ { id: string, updatedAt: string, [key: string]: unknown }
interface CursorAnswer { data: Record_[], limit: number, nextCursor: string | null }

async function syncPage (app: App, installed: Installed, url: string): Promise<CursorAnswer> {
  const response = await call(app, installed, 'GET', url)
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** Every page of a list in cursor mode from `updatedSince`, `between` called after each page but the last. */
async function syncAll (app: App, installed: Installed, list: string, updatedSince: string, limit: number,
  between: (page: number, seen: Record_[]) => Promise<void> = async () => {}) {
  const seen: Record_[] = []
  let answer = await syncPage(app, installed, `/app-api/${list}?updatedSince=${encodeURIComponent(updatedSince)}&limit=${limit}`)
  for (let page = 1; ; page++) {
    seen.push(...answer.data)
    if (answer.nextCursor === null) return seen
    await between(page, seen)
    answer = await syncPage(app, installed, `/app-api/${list}?cursor=${answer.nextCursor}&limit=${limit}`)
  }
}

const ordered = (records: Record_[]) => records.every((record, i) => i === 0 ||
  records[i - 1].updatedAt < record.updatedAt || (records[i - 1].updatedAt === record.updatedAt && records[i - 1].id < record.id))

t.test('cursor mode pages through a changing catalogue: every record once, every later change again', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_products', 'read_orders', 'read_reviews', 'write_orders'])
  const { commerce } = portsOf(app)
  const before = (await call(app, installed, 'GET', '/app-api/products?limit=100')).json()
  t.ok(before.total >= 6, 'the sandbox has products to page through')

  const changed: string[] = []
  const seen = await syncAll(app, installed, 'products', FULL_SYNC, 2, async (page, read) => {
    if (page !== 1) return
    // one product already read and one not yet read change between the pages
    const first = read[0]
    const unread = before.data.find((product: Record_) => !read.some((done) => done.id === product.id))
    await commerce.updateProduct(installed.businessId, first.id, { description: 'changed after it was read' })
    await commerce.updateProduct(installed.businessId, unread.id, { description: 'changed before it was read' })
    changed.push(first.id, unread.id)
  })
  const ids = seen.map((product) => product.id)
  t.same(new Set(ids), new Set(before.data.map((product: Record_) => product.id)), 'every product is seen')
  t.equal(ids.filter((id) => id === changed[0]).length, 2, 'the product changed after it was read comes again')
  t.equal(ids.filter((id) => id === changed[1]).length, 1, 'the product changed before it was read comes once, changed')
  t.equal(seen.findLast((product) => product.id === changed[0])?.description, 'changed after it was read')
  t.equal(ids.length, before.total + 1, 'no other record twice')
  t.ok(ordered(seen), 'ascending (updatedAt, id)')
  t.equal(new Set(seen.map((product) => `${product.id}@${product.updatedAt}`)).size, seen.length, 'no version of a record twice')

  // later: what changed since the last record seen (inclusive), and only that
  const last = seen.at(-1) as Record_
  await commerce.updateProduct(installed.businessId, ids[0], { name: 'Renamed later' })
  const later = await syncAll(app, installed, 'products', last.updatedAt, 50)
  t.same(later.map((product) => product.id), [last.id, ids[0]], 'the resume sees the boundary record (inclusive) and the new change')
  t.equal(later[1].name, 'Renamed later')
})

t.test('the platform\'s own changes move updatedAt: stock taken by an order, an order\'s status, a direct fix in SQL', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_products', 'read_orders', 'write_orders'])
  const start = await syncAll(app, installed, 'products', FULL_SYNC, 100)
  const mark = (start.at(-1) as Record_).updatedAt
  const product = start.find((candidate) => candidate.status === 'ACTIVE' && candidate.isAvailable === true && (candidate.stock as number) > 0) as Record_
  const placed = await call(app, installed, 'POST', '/app-api/orders', {
    items: [{ productId: product.id, quantity: 1 }], deliveryMethod: 'PICKUP', paymentMethod: 'CASH', customer: { name: 'Ana', phone: '+15550000000' }
  })
  t.equal(placed.statusCode, 201, placed.body)
  const afterOrder = await syncAll(app, installed, 'products', mark, 100)
  t.ok(afterOrder.some((candidate) => candidate.id === product.id && candidate.stock === (product.stock as number) - 1), 'the stock an order took is a change')

  const order = placed.json()
  const orders = await syncAll(app, installed, 'orders', order.updatedAt, 100)
  t.ok(orders.some((candidate) => candidate.id === order.id), 'a new order is a change')
  const moved = await call(app, installed, 'PATCH', `/app-api/orders/${order.id}/status`, { status: 'CONFIRMED' })
  t.equal(moved.statusCode, 200)
  t.ok(moved.json().updatedAt > order.updatedAt, 'a status move stamps the order')

  await app.db.execute(sql`update orders set address = 'fixed by hand' where id = ${order.id}`)
  const fixed = await syncAll(app, installed, 'orders', moved.json().updatedAt, 100)
  const after = fixed.find((candidate) => candidate.id === order.id) as Record_
  t.equal(after.address, 'fixed by hand')
  t.ok(after.updatedAt > moved.json().updatedAt, 'a change made in SQL moves updatedAt too (the trigger)')
})

t.test('cursor mode keeps its filter, answers in the request\'s version and refuses what is not a sync', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_products', 'read_orders', 'read_reviews'])
  const all = await syncAll(app, installed, 'orders', FULL_SYNC, 50)
  const status = all[0].status as string
  const first = await syncPage(app, installed, `/app-api/orders?updatedSince=${FULL_SYNC}&status=${status}&limit=1`)
  t.same(Object.keys(first).sort(), ['data', 'limit', 'nextCursor'], 'the cursor envelope: no total, no page')
  const filtered = await syncAll(app, installed, 'orders', FULL_SYNC, 50)
  t.ok(filtered.length > 0)
  let cursor = first.nextCursor
  const byStatus: Record_[] = [...first.data]
  while (cursor !== null) {
    const next = await syncPage(app, installed, `/app-api/orders?cursor=${cursor}&limit=1`)
    byStatus.push(...next.data)
    cursor = next.nextCursor
  }
  t.same(byStatus.map((order) => order.id), all.filter((order) => order.status === status).map((order) => order.id), 'later pages keep the first page\'s status')

  if (first.nextCursor !== null) {
    const other = (['PENDING', 'CONFIRMED', 'DELIVERED', 'CANCELLED'] as const).find((candidate) => candidate !== status)
    const mismatch = await call(app, installed, 'GET', `/app-api/orders?cursor=${first.nextCursor}&status=${other}`)
    t.equal(mismatch.statusCode, 400)
    t.equal(mismatch.json().code, 'cursor_invalid', 'a cursor given for another status')
  }

  // the request's version: 2026-11 plain integers, 2026-12 money objects
  const v11 = await app.inject({ method: 'GET', url: `/app-api/products?updatedSince=${FULL_SYNC}&limit=1`, headers: { ...installed.auth, 'app-api-version': '2026-11' } })
  const v12 = await app.inject({ method: 'GET', url: `/app-api/products?updatedSince=${FULL_SYNC}&limit=1`, headers: { ...installed.auth, 'app-api-version': '2026-12' } })
  t.type(v11.json().data[0].price, 'number')
  t.match(v12.json().data[0].price, { amount: Number, currency: String })
  t.ok(v12.json().nextCursor !== undefined && v11.json().nextCursor !== undefined, 'both keep the cursor envelope')
  const o11 = await app.inject({ method: 'GET', url: `/app-api/orders?updatedSince=${FULL_SYNC}&limit=1`, headers: { ...installed.auth, 'app-api-version': '2026-11' } })
  t.type(o11.json().data[0].amount, 'number')

  const reviews = await syncAll(app, installed, 'reviews', FULL_SYNC, 3)
  t.ok(reviews.length > 0 && reviews.every((review) => typeof review.updatedAt === 'string'), 'reviews sync, each with its updatedAt')
  t.ok(ordered(reviews))

  const page = (await call(app, installed, 'GET', '/app-api/orders?limit=5')).json()
  t.same(Object.keys(page).sort(), ['data', 'limit', 'page', 'total'], 'page mode is unchanged')

  for (const [query, code] of [
    ['updatedSince=yesterday', 'updated_since_invalid'],
    ['updatedSince=2026-11-31T00:00:00', 'updated_since_invalid'],
    ['updatedSince=2026-13-01T00:00:00Z', 'updated_since_invalid'],
    ['cursor=not-a-cursor', 'cursor_invalid'],
    [`cursor=${Buffer.from(JSON.stringify(['2026-01-01', 'x'])).toString('base64url')}`, 'cursor_invalid'],
    [`cursor=${first.nextCursor ?? 'x'}&updatedSince=${FULL_SYNC}`, 'sync_mode_conflict'],
    [`updatedSince=${FULL_SYNC}&page=2`, 'sync_mode_conflict']
  ] as const) {
    const response = await call(app, installed, 'GET', `/app-api/orders?${query}`)
    t.equal(response.statusCode, 400, query)
    t.equal(response.json().code, code, query)
  }
  const unfiltered = await syncPage(app, installed, `/app-api/orders?updatedSince=${FULL_SYNC}&limit=1`)
  const refiltered = await call(app, installed, 'GET', `/app-api/orders?cursor=${unfiltered.nextCursor}&status=PENDING`)
  t.equal(refiltered.json().code, 'cursor_invalid', 'a filter added to an unfiltered cursor')
})

t.test('another business\'s records never show in cursor mode', async (t) => {
  const app = await build(t)
  const one = await installApp(app, ['read_orders'])
  const two = await installApp(app, ['read_orders'])
  t.not(one.businessId, two.businessId)
  const ofOne = new Set((await syncAll(app, one, 'orders', FULL_SYNC, 50)).map((order) => order.id))
  const ofTwo = await syncAll(app, two, 'orders', FULL_SYNC, 50)
  t.ok(ofTwo.length > 0 && ofTwo.every((order) => !ofOne.has(order.id)))
})

t.test('SYNC_SETTLE_SECONDS: a change younger than the window waits for the next sync', async (t) => {
  const app = await build(t, { env: { SYNC_SETTLE_SECONDS: '300' } })
  const installed = await installApp(app, ['read_products'])
  const { commerce } = portsOf(app)
  // the sandbox's sample products were stamped when they were seeded: just now, inside the window
  const seen = await syncAll(app, installed, 'products', FULL_SYNC, 100)
  t.same(seen, [], 'nothing younger than five minutes')
  await app.db.execute(sql`alter table products disable trigger products_touch_updated_at`)
  await app.db.execute(sql`update products set updated_at = now() - interval '2 hours' where business_id = ${installed.businessId}`)
  await app.db.execute(sql`alter table products enable trigger products_touch_updated_at`)
  const settled = await syncAll(app, installed, 'products', FULL_SYNC, 100)
  t.ok(settled.length > 0, 'changes older than the window show')
  await commerce.updateProduct(installed.businessId, settled[0].id, { description: 'just now' })
  const again = await syncAll(app, installed, 'products', FULL_SYNC, 100)
  t.notOk(again.some((product) => product.id === settled[0].id), 'the fresh change is held back until it has settled')
})
