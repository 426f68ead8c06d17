import t, { type Test } from 'tap'
import {
  AppApiError, BulkExportError, createAppApiClient, paginate, verifyWebhook, waitForBulkExport,
  type BulkExportFinishedEventData, type FetchLike, type Order
} from '../../sdk/src/index.ts'
import { build, listen, portsOf, until } from '../helper.ts'
import { installApp, placeOrder, receiver } from '../plugins/webhooks/helpers.ts'

/**
 * The SDK's incremental sync and bulk exports (DESIGN §25) against a real platform (build + listen,
 * real HTTP): an app pages through a list that changes under it, resumes from where it stopped, and
 * reads a whole list from one export's file. tsc checks this file: the records are the contract's types.
 */

const SCOPES = ['read_orders', 'write_orders', 'read_products', 'read_reviews']
/** Polls of a running export in a test: soon after one another (the SDK's default starts at 1 s). */
const FAST_POLL = { pollIntervalMs: 20, maxPollIntervalMs: 100 }

/** The error a promise or an iteration threw. */
async function caught<E extends Error> (work: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const result = await work.then(() => null, (error: unknown) => error)
  if (!(result instanceof type)) throw new Error(`expected a ${type.name}, got ${String(result)}`)
  return result
}

async function drain<T> (iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

const ascending = (records: Array<{ id: string, updatedAt: string }>): boolean =>
  records.every((r, i) => i === 0 || records[i - 1].updatedAt < r.updatedAt || (records[i - 1].updatedAt === r.updatedAt && records[i - 1].id < r.id))

async function stage (t: Test) {
  const platform = await build(t, { env: { RATE_LIMIT_PER_MINUTE: '1000000' } })
  const baseUrl = await listen(platform)
  const hooks = await receiver(t)
  const installed = await installApp(platform, { scopes: SCOPES, webhookUrl: hooks.url })
  const api = createAppApiClient({ baseUrl, accessToken: installed.accessToken })
  const placed: string[] = []
  for (let i = 0; i < 4; i++) placed.push((await placeOrder(platform, installed.businessId)).id)
  /** A client of the same installation whose network goes through `fetch`. */
  const client = (fetch: FetchLike) => createAppApiClient({ baseUrl, accessToken: installed.accessToken, fetch })
  return { platform, hooks, installed, api, placed, client }
}

t.test('client.sync: a list that changes between pages, then only what changed since', async (t) => {
  const { api, placed } = await stage(t)
  const before = await drain(paginate(api.orders.list, { limit: 50 }))
  t.ok(before.length >= placed.length + 2, 'the sandbox\'s sample orders and ours')

  // the sample's orders come first (their last change is days old): DELIVERED, DELIVERED, CANCELLED, PREPARING
  const orders = api.sync('orders', { limit: 4 })
  const seen: Order[] = []
  let moved: { early: string, late: string } | null = null
  for await (const order of orders) {
    seen.push(order)
    t.equal(orders.lastUpdatedAt, order.updatedAt, 'lastUpdatedAt follows the record just yielded')
    if (moved === null && seen.length === 4) {
      t.equal(orders.pages, 1, 'the first page read')
      // between two pages: an order already seen and one not yet reached change
      const early = seen.find((o) => o.status === 'PREPARING')
      if (early === undefined) throw new Error(`no PREPARING order on the first page: ${seen.map((o) => o.status).join(', ')}`)
      const late = placed[placed.length - 1]
      await api.orders.updateStatus(early.id, 'READY')
      await api.orders.updateStatus(late, 'CONFIRMED')
      moved = { early: early.id, late }
    }
  }
  if (moved === null) throw new Error('never changed anything')
  t.ok(orders.pages >= 3, `several pages (${orders.pages})`)
  t.ok(ascending(seen), 'ordered by (updatedAt, id) across the pages')
  t.same(new Set(seen.map((o) => o.id)), new Set(before.map((o) => o.id)), 'every order seen')
  const lastTwo = seen.slice(-2)
  t.same(new Set(lastTwo.map((o) => o.id)), new Set([moved.early, moved.late]), 'the changed orders come last, with their change')
  t.same(seen.filter((o) => o.id === moved.early).map((o) => o.status), ['PREPARING', 'READY'], 'an order changed after it was read comes again, changed')
  t.equal(seen.filter((o) => o.id === moved.late).length, 1, 'an order changed before it was reached is seen once, changed')
  t.equal(seen.find((o) => o.id === moved.late)?.status, 'CONFIRMED')
  t.equal(orders.lastUpdatedAt, seen[seen.length - 1].updatedAt)

  t.test('resumed with updatedSince: the changes since, the last record again (inclusive)', async (t) => {
    const saved = orders.lastUpdatedAt!
    const changed = placed[1]
    await api.orders.updateStatus(changed, 'CONFIRMED')
    const resumed = api.sync('orders', { updatedSince: saved })
    const again = await drain(resumed)
    t.same(again.map((o) => o.id), [seen[seen.length - 1].id, changed])
    t.equal(again[1].status, 'CONFIRMED')
    t.ok(again.every((o) => o.updatedAt >= saved))
    t.equal(resumed.lastUpdatedAt, again[1].updatedAt, 'the next resume point')
    t.same(await drain(api.sync('orders', { updatedSince: new Date(Date.parse(again[1].updatedAt) + 1) })), [], 'nothing changed since: nothing, one request')
  })

  t.test('the cursor keeps the first page\'s filters', async (t) => {
    const confirmed = api.sync('orders', { status: 'CONFIRMED', limit: 1 })
    const records = await drain(confirmed)
    t.ok(records.length >= 2, 'the two orders confirmed above')
    t.ok(confirmed.pages >= records.length, 'one record a page')
    t.ok(records.every((o) => o.status === 'CONFIRMED'), 'every page filtered')
    const firstPage = await api.syncPage('orders', { status: 'CONFIRMED', limit: 1 })
    t.equal(firstPage.data.length, 1)
    t.type(firstPage.nextCursor, 'string')
    t.same(await api.syncPage('orders', { cursor: firstPage.nextCursor!, limit: 1 }), await api.syncPage('orders', { cursor: firstPage.nextCursor!, limit: 1 }), 'a cursor reads the same page again')
  })

  t.test('products and reviews sync too: the records of page mode', async (t) => {
    const products = await drain(api.sync('products', { limit: 2 }))
    const listed = await drain(paginate(api.products.list, { limit: 100 }))
    t.same(new Set(products.map((p) => p.id)), new Set(listed.map((p) => p.id)))
    t.ok(ascending(products))
    const reviews = await drain(api.sync('reviews', { limit: 2 }))
    const listedReviews = await drain(paginate(api.reviews.list, { limit: 50 }))
    t.ok(reviews.length > 0)
    t.same(new Set(reviews.map((r) => r.id)), new Set(listedReviews.map((r) => r.id)))
  })

  t.test('a malformed updatedSince or cursor is a 400 with its code', async (t) => {
    t.match(await caught(drain(api.sync('orders', { updatedSince: 'yesterday' })), AppApiError), { statusCode: 400, code: 'updated_since_invalid' })
    t.match(await caught(drain(api.sync('orders', { cursor: 'not-a-cursor' })), AppApiError), { statusCode: 400, code: 'cursor_invalid' })
  })
})

t.test('client.bulkExport: every record of the list from one file', async (t) => {
  const { api, hooks, installed, client } = await stage(t)
  const synced = await drain(api.sync('orders'))

  const run = api.bulkExport('orders', FAST_POLL)
  const exported: Order[] = await drain(run)
  const done = run.bulkExport!
  t.match(done, { id: /^bex_/, status: 'COMPLETED', resource: 'orders', rowCount: synced.length, sha256: /^[0-9a-f]{64}$/ })
  t.equal(exported.length, done.rowCount, 'as many records as rowCount')
  t.same(exported, synced, 'the records of the list, field for field, oldest change first')

  t.test('bulk_export.finished reaches the app\'s webhook', async (t) => {
    const finished = () => hooks.received.map((d) => verifyWebhook(d.body, d.headers, installed.webhookSecret)).filter((e) => e.event === 'bulk_export.finished')
    const events = await until(async () => finished(), (list) => list.length > 0)
    t.equal(events.length, 1)
    const data = events[0].data as unknown as BulkExportFinishedEventData
    t.same(data, { exportId: done.id, resource: 'orders', status: 'COMPLETED', rowCount: done.rowCount })
  })

  t.test('createBulkExport and getBulkExport, updatedSince', async (t) => {
    const since = synced[synced.length - 1].updatedAt
    const created = await api.createBulkExport('orders', { updatedSince: since })
    t.match(created, { id: /^bex_/, status: 'RUNNING', resource: 'orders' })
    const reread = await api.getBulkExport(created.id)
    t.equal(reread.id, created.id)
    const finished = await untilFinished(api, created.id)
    t.equal(finished.status, 'COMPLETED')
    t.equal(finished.rowCount, synced.filter((o) => o.updatedAt >= since).length, 'only what changed since')
  })

  t.test('a tampered link is refused, and so is a file that is not the export\'s', async (t) => {
    const tamper: FetchLike = async (url, init) => {
      const target = new URL(url)
      if (target.pathname.endsWith('/download')) {
        const signature = target.searchParams.get('signature') ?? ''
        target.searchParams.set('signature', signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0'))
        t.notOk(new Headers(init?.headers).has('authorization'), 'the download carries no token')
      }
      return await fetch(target.toString(), init)
    }
    const refused = await caught(drain(client(tamper).bulkExport('orders', FAST_POLL)), BulkExportError)
    t.match(refused, { code: 'download_failed', exportId: /^bex_/, message: /answered 403 \(bulk_export_link_invalid\)/ })

    // the download swapped for another export's file (of products): its bytes do not match
    const other = await untilFinished(api, (await api.createBulkExport('products')).id)
    const swap: FetchLike = async (url, init) => await fetch(new URL(url).pathname.endsWith('/download') ? other.url! : url, init)
    const mismatch = await caught(drain(client(swap).bulkExport('orders', FAST_POLL)), BulkExportError)
    t.match(mismatch, { code: 'download_mismatch', message: /sha256|bytes/ })
  })
})

/** Reads the export until it is no longer RUNNING (the SDK's own wait, fast); FAILED throws. */
async function untilFinished (api: ReturnType<typeof createAppApiClient>, id: string) {
  return await waitForBulkExport(async () => await api.getBulkExport(id), await api.getBulkExport(id), FAST_POLL)
}

t.test('client.bulkExport: one at a time (409), and an export that FAILED, as BulkExportErrors', async (t) => {
  // a web process alone: no worker takes the export's run, so it stays RUNNING until the test ends it
  const platform = await build(t, { env: { RATE_LIMIT_PER_MINUTE: '1000000', PROCESS_ROLE: 'web' } })
  const baseUrl = await listen(platform)
  const installed = await installApp(platform, { scopes: SCOPES })
  const api = createAppApiClient({ baseUrl, accessToken: installed.accessToken })

  const run = api.bulkExport('orders', FAST_POLL)
  // settled, never rejected, until the test reads it below
  const reading = drain(run).then(() => null, (error: unknown) => error)
  const running = await until(async () => run.bulkExport, (current) => current !== null)
  t.match(running, { id: /^bex_/, status: 'RUNNING' })

  const busy = await caught(api.createBulkExport('products'), BulkExportError)
  t.match(busy, { code: 'bulk_export_running', message: /already running/ })
  t.match(busy.cause, { statusCode: 409, code: 'bulk_export_running' }, 'the API\'s answer as its cause')
  t.equal((await caught(drain(api.bulkExport('reviews', FAST_POLL)), BulkExportError)).code, 'bulk_export_running')

  // the process running it stopped twice (a crash, a restart): the sweep gives it up
  await platform.database.executeSql('update bulk_exports set claimed_at = now() - interval \'1 minute\', attempts = 2 where id = $1', [running!.id])
  t.equal(await portsOf(platform).bulkExports.sweep(0), 1)
  const failed = await caught(reading.then((error) => { throw error }), BulkExportError)
  t.match(failed, { code: 'bulk_export_failed', exportId: running!.id, message: /interrupted 2 times/ }, 'the export\'s error in the message')
  t.match(failed.bulkExport, { status: 'FAILED', error: /interrupted 2 times/ })
  t.match(await api.createBulkExport('orders'), { status: 'RUNNING' }, 'one at a time: the next is accepted')
})
