import t from 'tap'
import type { FetchLike } from '@app-platform/sdk'
import { install, stage, type Stage } from './fixture.ts'
import { placeOrder } from '../../../test/plugins/webhooks/helpers.ts'
import { openStore } from '../src/store.ts'
import { FEED_START_DAYS } from '../src/order-feed.ts'

interface FeedOrder { id: string, orderNumber: string, status: string, updatedAt: string }
interface Feed { orders: FeedOrder[], lastUpdatedAt: string | null, read: number }

/** The admin page opening: the overview, with a session token the platform issued for the merchant. */
async function openAdminPage (s: Stage, installationId: string): Promise<Feed> {
  const issued = await s.platform.inject({ method: 'POST', url: `/merchant/installations/${installationId}/session-token`, headers: s.merchant.auth })
  if (issued.statusCode !== 200) throw new Error(`session token: ${issued.body}`)
  const response = await fetch(`${s.appUrl}/admin/api/overview`, { headers: { authorization: `Bearer ${issued.json().sessionToken as string}` } })
  if (response.status !== 200) throw new Error(`overview: ${response.status} ${await response.text()}`)
  return (await response.json() as { recentOrders: Feed }).recentOrders
}

t.test('the admin page\'s order feed asks only for what changed since its last refresh', async (t) => {
  // the app's real network, watched: which order lists it asks the platform for
  const asked: URLSearchParams[] = []
  const watched: FetchLike = async (url, init) => {
    const target = new URL(url)
    if (target.pathname === '/app-api/orders') asked.push(target.searchParams)
    return await fetch(url, init)
  }
  const s = await stage(t, {}, watched)
  const installation = await install(s)
  const orders = async () => (await s.platform.inject({ url: '/merchant/orders?limit=50', headers: s.merchant.auth })).json().data as FeedOrder[]

  const first = await openAdminPage(s, installation.installationId)
  const sample = await orders()
  t.equal(asked.length, 1, 'one request')
  const since = asked[0].get('updatedSince')
  t.ok(since !== null && Date.parse(since) <= Date.now() - (FEED_START_DAYS - 1) * 86_400_000, `the first refresh reads the last ${FEED_START_DAYS} days (${String(since)})`)
  t.equal(asked[0].get('page'), null, 'cursor mode, not pages')
  t.same(new Set(first.orders.map((o) => o.id)), new Set(sample.map((o) => o.id)), 'the sample orders')
  t.equal(first.read, sample.length)
  const newest = [...sample].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]
  t.equal(first.lastUpdatedAt, newest.updatedAt, 'the last updatedAt seen')
  t.equal(openStore(s.dataDir).orderFeed(installation.businessId).lastUpdatedAt, first.lastUpdatedAt, 'kept in the app\'s store, on disk')

  t.test('the next refresh: the changed order and the new one, nothing else', async (t) => {
    const pending = sample.find((o) => o.status === 'PENDING')
    if (pending === undefined) throw new Error('the sample has a PENDING order')
    const moved = await s.platform.inject({ method: 'PATCH', url: `/merchant/orders/${pending.id}/status`, headers: s.merchant.auth, payload: { status: 'CONFIRMED' } })
    t.equal(moved.statusCode, 200, moved.body)
    const placed = await placeOrder(s.platform, installation.businessId)

    asked.length = 0
    const second = await openAdminPage(s, installation.installationId)
    t.equal(asked.length, 1)
    t.equal(asked[0].get('updatedSince'), first.lastUpdatedAt, 'asked only for the changes since the last refresh')
    t.ok(second.read <= 3, `read the changes (and the last order of the previous refresh again), not the store (${second.read})`)
    t.equal(second.orders.length, sample.length + 1, 'the new order added')
    t.match(second.orders.find((o) => o.id === pending.id), { status: 'CONFIRMED' }, 'the changed order as it is now')
    t.same(second.orders.slice(0, 2).map((o) => o.id).sort(), [pending.id, placed.id].sort(), 'newest change first')

    asked.length = 0
    const third = await openAdminPage(s, installation.installationId)
    t.equal(asked[0].get('updatedSince'), second.lastUpdatedAt)
    t.equal(third.read, 1, 'nothing changed: only the last order again (updatedSince is inclusive)')
    t.same(third.orders, second.orders)
  })

  t.test('erasure forgets the feed', async (t) => {
    s.reference.reference.store.eraseBusiness(installation.businessId)
    t.same(s.reference.reference.store.orderFeed(installation.businessId), { lastUpdatedAt: null, orders: [] })
    t.notOk(s.reference.reference.store.holdsBusiness(installation.businessId))
  })
})
