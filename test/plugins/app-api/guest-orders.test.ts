import t from 'tap'
import { build, registerUser } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'
import { NO_RATE_LIMIT, call, eventsOf, installApp } from './fixtures.ts'

t.test('POST /app-api/orders (guest order)', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const installed = await installApp(app, ['read_products', 'read_orders', 'write_orders'])
  const products = (await call(app, installed, 'GET', '/app-api/products')).json().data as Array<{ id: string, name: string, price: number, stock: number, isAvailable: boolean, category: string }>
  const pizza = products.find((p) => p.name === 'Margherita Pizza')!
  const lemonade = products.find((p) => p.name === 'Lemonade')!
  const soldOut = products.find((p) => !p.isAvailable)!
  const body = (overrides: Record<string, unknown> = {}) => ({
    items: [{ productId: pizza.id, quantity: 2 }, { productId: lemonade.id, quantity: 1 }],
    customer: { name: 'Ana', phone: '+15550100', email: 'ana@example.com' },
    deliveryMethod: 'DELIVERY',
    address: '1 Main Street',
    paymentMethod: 'CASH',
    ...overrides
  })
  const post = (payload: unknown) => call(app, installed, 'POST', '/app-api/orders', payload)

  t.test('prices on the server, answers 201 with the order and writes order.created once', async (t) => {
    const before = await eventsOf(app, installed.businessId, 'order.created')
    const response = await post(body({ items: [{ productId: pizza.id, quantity: 2, unitPrice: 1 }] }))
    t.equal(response.statusCode, 400, 'a client price is not even accepted')
    const created = await post(body())
    t.equal(created.statusCode, 201)
    const order = created.json()
    const subtotal = pizza.price * 2 + lemonade.price
    t.match(order, {
      status: 'PENDING', isGuest: true, paymentStatus: 'PENDING', paymentMethod: 'CASH', deliveryMethod: 'DELIVERY', address: '1 Main Street',
      items: [{ productId: String, quantity: Number, unitPrice: Number, total: Number }, {}],
      subtotal, deliveryFee: 300, discount: 0, amount: subtotal + 300, currency: 'USD', customer: { name: 'Ana', phone: '+15550100', email: 'ana@example.com' }
    })
    t.same(order.items.map((i: { productId: string, unitPrice: number, total: number }) => [i.productId, i.unitPrice, i.total]).sort(),
      [[pizza.id, pizza.price, pizza.price * 2], [lemonade.id, lemonade.price, lemonade.price]].sort())
    const events = (await eventsOf(app, installed.businessId, 'order.created')).slice(before.length)
    t.equal(events.length, 1, 'order.created once')
    t.match(events[0].data, { orderId: order.id, orderNumber: order.orderNumber, amount: subtotal + 300, deliveryFee: 300, deliveryMethod: 'DELIVERY', paymentMethod: 'CASH', isGuest: true, status: 'PENDING' })
    t.same((await call(app, installed, 'GET', `/app-api/orders/${order.id}`)).json(), order, 'readable through GET /app-api/orders/:id')
    const stock = (await call(app, installed, 'GET', `/app-api/products/${pizza.id}`)).json().stock
    t.equal(stock, pizza.stock - 2, 'stock taken')
  })

  t.test('PICKUP is free and needs no address', async (t) => {
    const response = await post(body({ deliveryMethod: 'PICKUP', address: undefined, items: [{ productId: lemonade.id, quantity: 3 }] }))
    t.equal(response.statusCode, 201)
    t.match(response.json(), { deliveryFee: 0, amount: lemonade.price * 3 })
  })

  t.test('refuses products that are unknown, unavailable or of another business with 422, and writes nothing', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT')
    const elsewhere = await createProduct(app, merchant, { name: 'Elsewhere', price: 10, stock: 5 })
    const before = (await eventsOf(app, installed.businessId)).length
    for (const productId of ['prod_unknown', soldOut.id, elsewhere.id]) {
      const response = await post(body({ items: [{ productId, quantity: 1 }] }))
      t.equal(response.statusCode, 422, productId)
      t.match(response.json(), { statusCode: 422, error: 'Unprocessable Entity', productId })
    }
    t.equal((await eventsOf(app, installed.businessId)).length, before, 'no event')
    t.same(await eventsOf(app, merchant.businessId, 'order.created'), [], 'nothing on the other business')
  })

  t.test('not enough stock is 409 with what is available', async (t) => {
    const tiramisu = products.find((p) => p.name === 'Tiramisu')!
    const response = await post(body({ items: [{ productId: tiramisu.id, quantity: tiramisu.stock + 1 }] }))
    t.equal(response.statusCode, 409)
    t.match(response.json(), { error: 'Conflict', productId: tiramisu.id, available: tiramisu.stock })
  })

  t.test('a line above MAX_LINE_QUANTITY (default 20) is 400, even split over two lines', async (t) => {
    const response = await post(body({ items: [{ productId: pizza.id, quantity: 15 }, { productId: pizza.id, quantity: 6 }] }))
    t.equal(response.statusCode, 400)
    t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: /At most 20 of one product/, productId: pizza.id, maxLineQuantity: 20 })
  })

  t.test('bad bodies are 400, never 500', async (t) => {
    const cases: unknown[] = [
      {}, body({ items: [] }), body({ items: [{ productId: pizza.id, quantity: 0 }] }), body({ items: [{ productId: pizza.id, quantity: 'two' }] }),
      body({ deliveryMethod: 'DRONE' }), body({ deliveryMethod: 'DELIVERY', address: undefined }), body({ customer: {} }),
      body({ customer: { name: 'A', email: 'not-an-email' } }), body({ paymentMethod: '' }), body({ extra: true })
    ]
    for (const payload of cases) {
      const response = await post(payload)
      t.equal(response.statusCode, 400, JSON.stringify(payload).slice(0, 80))
      t.equal(response.json().error, 'Bad Request')
    }
    const malformed = await app.inject({ method: 'POST', url: '/app-api/orders', headers: { ...installed.auth, 'content-type': 'application/json' }, payload: '{"items": [' })
    t.equal(malformed.statusCode, 400)
  })

  t.test('an unknown payment method is 422 (no app offers it yet)', async (t) => {
    const response = await post(body({ paymentMethod: 'crypto-wallet' }))
    t.equal(response.statusCode, 422)
    t.match(response.json().message, /Unknown payment method/)
  })
})
