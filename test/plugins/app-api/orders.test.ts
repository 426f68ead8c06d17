import t from 'tap'
import { eq } from 'drizzle-orm'
import { orders, type OrderStatus } from '../../../server/db/schema/index.ts'
import { createOrder } from '../../../plugins/commerce/checkout-service.ts'
import { ORDER_TRANSITIONS } from '../../../plugins/commerce/orders-service.ts'
import { ORDER_PAGE_LIMITS } from '../../../plugins/commerce/schemas.ts'
import { build } from '../../helper.ts'
import { NO_RATE_LIMIT, call, checkPagination, eventsOf, firstOf, installApp, type Installed } from './fixtures.ts'

const STATUSES = Object.keys(ORDER_TRANSITIONS) as OrderStatus[]
const ORDER_KEYS = ['address', 'amount', 'createdAt', 'currency', 'customer', 'deliveryFee', 'deliveryMethod', 'discount', 'id', 'isGuest',
  'items', 'orderNumber', 'paymentMethod', 'paymentStatus', 'promoCode', 'promoDiscount', 'status', 'subtotal', 'updatedAt']

t.test('App API orders', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_orders', 'write_orders', 'read_products'])
  const other = await installApp(app, ['read_orders', 'write_orders'])
  const foreign = await firstOf(app, other, '/app-api/orders')
  const product = (await call(app, installed, 'GET', '/app-api/products?category=Drinks')).json().data[0]

  /** An order of the installation's business already in `status` (its history is not under test). */
  async function orderIn (target: Installed, status: OrderStatus): Promise<string> {
    const order = await createOrder(app.db, target.businessId, { items: [{ productId: product.id, quantity: 1 }], customer: { name: 'Ana' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' })
    await app.db.update(orders).set({ status }).where(eq(orders.id, order.id))
    return order.id
  }
  const patch = (id: string, status: unknown, as = installed) => call(app, as, 'PATCH', `/app-api/orders/${id}/status`, { status })

  t.test('GET /app-api/orders lists the business orders in the DESIGN shape', async (t) => {
    const response = await call(app, installed, 'GET', '/app-api/orders')
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.equal(body.total, 5, 'the five sample orders')
    for (const order of body.data) {
      t.same(Object.keys(order).sort(), ORDER_KEYS)
      t.match(order, { orderNumber: /^\d+$/, items: [{ productId: String, name: String, quantity: Number, unitPrice: Number, total: Number }], customer: { name: String } })
    }
    t.notOk(body.data.some((o: { id: string }) => o.id === foreign.id))
  })

  t.test('GET /app-api/orders?status filters; an unknown status is 400', async (t) => {
    const delivered = (await call(app, installed, 'GET', '/app-api/orders?status=DELIVERED')).json()
    t.equal(delivered.total, 2)
    t.ok(delivered.data.every((o: { status: string }) => o.status === 'DELIVERED'))
    const bad = await call(app, installed, 'GET', '/app-api/orders?status=SHIPPED')
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().error, 'Bad Request')
  })

  t.test('GET /app-api/orders pagination edges (20 / 50)', async (t) => {
    await checkPagination(t, app, installed, '/app-api/orders', ORDER_PAGE_LIMITS)
    await checkPagination(t, app, installed, '/app-api/orders?status=DELIVERED', ORDER_PAGE_LIMITS)
  })

  t.test('GET /app-api/orders/:id; another business order is 404', async (t) => {
    const first = await firstOf(app, installed, '/app-api/orders')
    const response = await call(app, installed, 'GET', `/app-api/orders/${first.id}`)
    t.equal(response.statusCode, 200)
    t.same(response.json(), first)
    const missing = await call(app, installed, 'GET', `/app-api/orders/${foreign.id}`)
    t.equal(missing.statusCode, 404)
    t.same(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Order not found', code: 'order_not_found' })
  })

  t.test('PATCH /app-api/orders/:id/status: every legal move answers the updated order and writes its events', async (t) => {
    for (const from of STATUSES) {
      for (const to of ORDER_TRANSITIONS[from]) {
        const id = await orderIn(installed, from)
        const before = (await eventsOf(app, installed.businessId)).length
        const response = await patch(id, to)
        t.equal(response.statusCode, 200, `${from} → ${to}`)
        t.same(Object.keys(response.json()).sort(), ORDER_KEYS)
        t.match(response.json(), { id, status: to })
        const events = (await eventsOf(app, installed.businessId)).slice(before)
        const expected = ['order.status_changed', ...(to === 'DELIVERED' ? ['order.delivered'] : to === 'CANCELLED' ? ['order.cancelled'] : [])]
        t.same(events.map((e) => e.event), expected, `${from} → ${to} events`)
        t.match(events[0].data, { orderId: id, status: to, previousStatus: from })
      }
    }
  })

  t.test('PATCH /app-api/orders/:id/status: every illegal move is 409 and writes nothing', async (t) => {
    for (const from of STATUSES) {
      for (const to of STATUSES.filter((s) => !ORDER_TRANSITIONS[from].includes(s))) {
        const id = await orderIn(installed, from)
        const before = (await eventsOf(app, installed.businessId)).length
        const response = await patch(id, to)
        t.equal(response.statusCode, 409, `${from} → ${to}`)
        t.same(response.json(), { statusCode: 409, error: 'Conflict', message: `An order cannot move from ${from} to ${to}`, code: 'order_transition_invalid' })
        t.equal((await eventsOf(app, installed.businessId)).length, before, 'no event')
        t.equal((await call(app, installed, 'GET', `/app-api/orders/${id}`)).json().status, from, 'unchanged')
      }
    }
  })

  t.test('PATCH /app-api/orders/:id/status: unknown status or bad body is 400; another business order is 404', async (t) => {
    const id = await orderIn(installed, 'PENDING')
    for (const status of ['SHIPPED', 'pending', 42, null]) t.equal((await patch(id, status)).statusCode, 400, String(status))
    t.equal((await call(app, installed, 'PATCH', `/app-api/orders/${id}/status`, { status: 'CONFIRMED', extra: 1 })).statusCode, 400)
    t.equal((await call(app, installed, 'PATCH', `/app-api/orders/${id}/status`)).statusCode, 400, 'no body')
    const before = (await eventsOf(app, other.businessId)).length
    const missing = await patch(foreign.id, 'CANCELLED')
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().error, 'Not Found')
    t.equal((await eventsOf(app, other.businessId)).length, before, 'nothing written to the other business')
    t.equal((await call(app, other, 'GET', `/app-api/orders/${foreign.id}`)).json().status, foreign.status)
  })
})
