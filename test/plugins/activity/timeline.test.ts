import t from 'tap'
import type { App } from '../../../server/app.ts'
import { SCOPES } from '../../../server/events.ts'
import { expireIfDue } from '../../../plugins/commerce/payment-expiry.ts'
import { build, registerUser, type Session } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { installApp, call } from '../app-api/fixtures.ts'
import { createProduct } from '../commerce/fixtures.ts'

interface Entry {
  id: string
  at: string
  actor: { type: string, id: string | null, name: string }
  action: string
  resource: { type: string, id: string }
  changes: Record<string, any>
}

async function activity (app: App, session: Session, query = ''): Promise<{ data: Entry[], nextCursor: string | null }> {
  const response = await app.inject({ url: `/merchant/activity${query}`, headers: session.auth })
  if (response.statusCode !== 200) throw new Error(`activity: ${response.statusCode} ${response.body}`)
  return response.json()
}

async function storeOrder (app: App, slug: string, productId: string, customer: Record<string, string>) {
  const response = await app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/orders`,
    payload: { items: [{ productId, quantity: 1 }], customer, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
  })
  if (response.statusCode !== 201) throw new Error(`order: ${response.statusCode} ${response.body}`)
  return response.json().order as { id: string, orderNumber: string }
}

t.test("an order's timeline names the customer, the app and the staff member", async (t) => {
  const clock = new TestClock()
  const app = await build(t, { clock })
  const merchant = await registerUser(app, 'DEVELOPER', { name: 'Rosa Staff' })
  const installed = await installApp(app, SCOPES, merchant)
  const appName = (await app.inject({ url: `/developer/apps/${installed.appId}`, headers: merchant.auth })).json().name as string
  const slug = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json().slug as string
  const product = await createProduct(app, merchant, { name: 'Timeline cake', stock: 5 })

  // the customer checks out on the storefront, the app confirms through the App API, the staff member moves it on in the admin
  const order = await storeOrder(app, slug, product.id, { name: 'Ana Customer', email: 'ana@example.com', phone: '+15550100' })
  t.equal((await call(app, installed, 'PATCH', `/app-api/orders/${order.id}/status`, { status: 'CONFIRMED' })).statusCode, 200)
  t.equal((await app.inject({ method: 'PATCH', url: `/merchant/orders/${order.id}/status`, headers: merchant.auth, payload: { status: 'PREPARING' } })).statusCode, 200)

  const timeline = await activity(app, merchant, `?resource=order:${order.id}`)
  t.same(timeline.data.map((entry) => [entry.actor.type, entry.actor.name, entry.action]), [
    ['staff', 'Rosa Staff', 'order.status_changed'],
    ['app', appName, 'order.status_changed'],
    ['customer', 'Ana Customer', 'order.created']
  ], 'newest first: the staff member, the app, the customer, each by name')
  t.match(timeline.data[0], { actor: { id: merchant.userId }, resource: { type: 'order', id: order.id }, changes: { status: { from: 'CONFIRMED', to: 'PREPARING' } } })
  t.match(timeline.data[1], { actor: { id: installed.installationId }, changes: { status: { from: 'PENDING', to: 'CONFIRMED' } } })
  t.match(timeline.data[2], { actor: { id: 'ana@example.com' }, changes: { orderNumber: order.orderNumber, status: 'PENDING' } })
  t.equal(timeline.nextCursor, null, 'one page')

  t.test('keyset pages: limit 1 walks the same entries through nextCursor', async (t) => {
    const seen: string[] = []
    let before: string | null = null
    do {
      const page = await activity(app, merchant, `?resource=order:${order.id}&limit=1${before === null ? '' : `&before=${before}`}`)
      t.ok(page.data.length <= 1)
      seen.push(...page.data.map((entry) => entry.id))
      before = page.nextCursor
    } while (before !== null)
    t.same(seen, timeline.data.map((entry) => entry.id))
  })

  t.test('filters by actor and by resource type', async (t) => {
    const byApp = await activity(app, merchant, '?actor=app')
    t.ok(byApp.data.length >= 1 && byApp.data.every((entry) => entry.actor.type === 'app'))
    const products = await activity(app, merchant, '?resource=product')
    t.match(products.data, [{ action: 'product.created', actor: { type: 'staff', name: 'Rosa Staff' }, resource: { id: product.id }, changes: { name: 'Timeline cake' } }])
    const apps = await activity(app, merchant, '?resource=app')
    t.match(apps.data, [{ action: 'app.installed', actor: { type: 'staff' }, resource: { id: installed.appId } }], 'the test install, by the developer')
  })

  t.test('a job is the platform: an unpaid order expires', async (t) => {
    const unpaid = await storeOrder(app, slug, product.id, { name: 'Ben Late' })
    clock.advance(31 * 60_000)
    t.equal(await expireIfDue(app.db, { businessId: merchant.businessId, orderId: unpaid.id, expiresAt: clock.now().toISOString() }, clock.now()), 'expired')
    const entries = (await activity(app, merchant, `?resource=order:${unpaid.id}`)).data
    t.same(entries.map((entry) => [entry.actor.type, entry.actor.name, entry.action]).slice(0, 2).sort(), [
      ['platform', 'Platform', 'order.payment_expired'],
      ['platform', 'Platform', 'order.status_changed']
    ])
    t.match(entries.at(-1), { actor: { type: 'customer', name: 'Ben Late', id: null }, action: 'order.created' })
  })
})
