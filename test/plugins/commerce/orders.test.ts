import t from 'tap'
import { eq } from 'drizzle-orm'
import { orders, type OrderStatus } from '../../../server/db/schema/index.ts'
import { createOrder } from '../../../plugins/commerce/checkout-service.ts'
import { ORDER_TRANSITIONS, updateOrderStatus } from '../../../plugins/commerce/orders-service.ts'
import type { App } from '../../../server/app.ts'
import { build, registerUser, type Session } from '../../helper.ts'
import { createProduct, eventsOf, eventNames, newMerchant } from './fixtures.ts'

const STATUSES = Object.keys(ORDER_TRANSITIONS) as OrderStatus[]

async function placeOrder (app: App, merchant: Session, productId: string, quantity = 1) {
  return await createOrder(app.db, merchant.businessId, {
    items: [{ productId, quantity }], customer: { name: 'Ana' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH'
  })
}

/** An order already in `status`, written directly (its history is not under test). */
async function orderIn (app: App, merchant: Session, productId: string, status: OrderStatus) {
  const order = await placeOrder(app, merchant, productId)
  await app.db.update(orders).set({ status }).where(eq(orders.id, order.id))
  return order.id
}

t.test('merchant orders', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const product = await createProduct(app, merchant, { name: 'Pizza', price: 1000, stock: 500, lowStockThreshold: 0 })
  const patch = (id: string, status: unknown, session = merchant) =>
    app.inject({ method: 'PATCH', url: `/merchant/orders/${id}/status`, headers: session.auth, payload: { status } })

  t.test('GET /merchant/orders and /merchant/orders/:id return the DESIGN order shape', async (t) => {
    const order = await placeOrder(app, merchant, product.id, 2)
    const list = await app.inject({ method: 'GET', url: '/merchant/orders', headers: merchant.auth })
    t.equal(list.statusCode, 200)
    t.match(list.json(), { total: 1, page: 1, limit: 20 })
    const response = await app.inject({ method: 'GET', url: `/merchant/orders/${order.id}`, headers: merchant.auth })
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.same(Object.keys(body).sort(), ['address', 'amount', 'createdAt', 'currency', 'customer', 'deliveryFee', 'deliveryMethod', 'discount', 'id', 'isGuest',
      'items', 'orderNumber', 'paymentMethod', 'paymentStatus', 'promoCode', 'promoDiscount', 'status', 'subtotal', 'updatedAt'])
    t.match(body, {
      orderNumber: '1001', status: 'PENDING', items: [{ productId: product.id, name: 'Pizza', quantity: 2, unitPrice: 1000, total: 2000 }],
      subtotal: 2000, deliveryFee: 0, discount: 0, amount: 2000, currency: 'USD', customer: { name: 'Ana', phone: '', email: '' }, isGuest: true
    })
    t.equal((await app.inject({ method: 'GET', url: `/merchant/orders/${order.id}`, headers: other.auth })).statusCode, 404, "another merchant's order is 404")
    t.equal((await patch(order.id, 'CONFIRMED', other)).statusCode, 404)
    t.equal((await app.inject({ method: 'GET', url: '/merchant/orders' })).statusCode, 401)
    const developer = await registerUser(app, 'DEVELOPER')
    t.equal((await app.inject({ method: 'GET', url: `/merchant/orders/${order.id}`, headers: developer.auth })).statusCode, 404, 'a developer reaches their sandbox only')
  })

  t.test('every legal transition emits status_changed, plus delivered/cancelled', async (t) => {
    for (const from of STATUSES) {
      for (const to of ORDER_TRANSITIONS[from]) {
        const id = await orderIn(app, merchant, product.id, from)
        const before = (await eventsOf(app, merchant.businessId)).length
        const response = await patch(id, to)
        t.equal(response.statusCode, 200, `${from} → ${to}`)
        t.equal(response.json().status, to)
        const events = (await eventsOf(app, merchant.businessId)).slice(before)
        const expected = ['order.status_changed', ...(to === 'DELIVERED' ? ['order.delivered'] : to === 'CANCELLED' ? ['order.cancelled'] : [])]
        t.same(events.map((e) => e.event), expected, `${from} → ${to} events`)
        t.match(events[0].data, { orderId: id, status: to, previousStatus: from, orderNumber: String, amount: 1000, deliveryFee: 0, deliveryMethod: 'PICKUP', paymentMethod: 'CASH', isGuest: true, createdAt: String })
      }
    }
  })

  t.test('every illegal transition is 409 and writes no event', async (t) => {
    for (const from of STATUSES) {
      for (const to of STATUSES.filter((s) => !ORDER_TRANSITIONS[from].includes(s))) {
        const id = await orderIn(app, merchant, product.id, from)
        const before = (await eventsOf(app, merchant.businessId)).length
        const response = await patch(id, to)
        t.equal(response.statusCode, 409, `${from} → ${to}`)
        t.match(response.json(), { statusCode: 409, error: 'Conflict', message: `An order cannot move from ${from} to ${to}` })
        t.equal((await eventsOf(app, merchant.businessId)).length, before, 'no event')
        const [row] = await app.db.select().from(orders).where(eq(orders.id, id))
        t.equal(row.status, from, 'unchanged')
      }
    }
  })

  t.test('PATCH /merchant/orders/:id/status refuses unknown statuses with 400', async (t) => {
    const id = await orderIn(app, merchant, product.id, 'PENDING')
    for (const status of ['SHIPPED', 'pending', 42, null]) t.equal((await patch(id, status)).statusCode, 400, String(status))
    t.equal((await app.inject({ method: 'PATCH', url: `/merchant/orders/${id}/status`, headers: merchant.auth, payload: { status: 'CONFIRMED', extra: 1 } })).statusCode, 400)
    await t.rejects(updateOrderStatus(app.db, merchant.businessId, id, 'SHIPPED'), { message: /./, statusCode: 400 }, 'the service checks too')
  })

  t.test('concurrent moves of one order: exactly one wins', async (t) => {
    const id = await orderIn(app, merchant, product.id, 'PENDING')
    const before = (await eventsOf(app, merchant.businessId)).length
    const results = await Promise.allSettled([
      updateOrderStatus(app.db, merchant.businessId, id, 'CONFIRMED'),
      updateOrderStatus(app.db, merchant.businessId, id, 'CONFIRMED')
    ])
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one move wins')
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    t.equal(loser.reason.statusCode, 409)
    const names = (await eventsOf(app, merchant.businessId)).slice(before).map((e) => e.event)
    t.equal(names.filter((n) => n === 'order.status_changed').length, 1, 'one status_changed')
  })

  t.test('cancelling restocks; delivering completes a built-in payment', async (t) => {
    const item = await createProduct(app, merchant, { name: 'Cake', price: 500, stock: 2, lowStockThreshold: 1 })
    const order = await placeOrder(app, merchant, item.id, 2)
    t.same((await eventsOf(app, merchant.businessId, 'product.out_of_stock')).map((e) => e.data.productId), [item.id])
    const cancelled = (await patch(order.id, 'CANCELLED')).json()
    t.equal(cancelled.paymentStatus, 'CANCELLED')
    const restocked = await app.inject({ method: 'GET', url: `/merchant/products/${item.id}`, headers: merchant.auth })
    t.equal(restocked.json().stock, 2)
    t.match((await eventsOf(app, merchant.businessId, 'product.back_in_stock')).map((e) => e.data), [{ productId: item.id, name: 'Cake', stock: 2, threshold: 1 }])

    const paid = await placeOrder(app, merchant, product.id)
    for (const status of ['CONFIRMED', 'PREPARING', 'READY', 'DELIVERED']) await patch(paid.id, status)
    t.equal((await app.inject({ method: 'GET', url: `/merchant/orders/${paid.id}`, headers: merchant.auth })).json().paymentStatus, 'COMPLETED')
  })

  t.test('GET /merchant/orders filters by status and paginates (default 20, max 50)', async (t) => {
    const all = (await app.inject({ method: 'GET', url: '/merchant/orders?limit=1000', headers: merchant.auth })).json()
    t.equal(all.limit, 50, 'clamped to 50')
    const cancelled = (await app.inject({ method: 'GET', url: '/merchant/orders?status=CANCELLED&limit=50', headers: merchant.auth })).json()
    t.ok(cancelled.total > 0)
    t.ok(cancelled.data.every((o: { status: string }) => o.status === 'CANCELLED'))
    t.equal((await app.inject({ method: 'GET', url: '/merchant/orders?status=LOST', headers: merchant.auth })).statusCode, 400)
    const beyond = (await app.inject({ method: 'GET', url: '/merchant/orders?page=1000', headers: merchant.auth })).json()
    t.same(beyond.data, [])
    t.equal(beyond.total, all.total)
    t.same(await eventNames(app, other.businessId), [], 'nothing leaked to the other business')
  })
})
