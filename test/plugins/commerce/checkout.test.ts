import t from 'tap'
import { eq } from 'drizzle-orm'
import { businesses, products } from '../../../server/db/schema/index.ts'
import { DELIVERY_FEE, createOrder, type CheckoutPipeline } from '../../../plugins/commerce/checkout-service.ts'
import { completePayment, expirePayment, attachPaymentSession } from '../../../plugins/commerce/payments-service.ts'
import { updateProduct } from '../../../plugins/commerce/products-service.ts'
import type { GuestOrderBody } from '../../../plugins/commerce/schemas.ts'
import { build } from '../../helper.ts'
import { createProduct, eventsOf, eventNames, newMerchant } from './fixtures.ts'

t.test('createOrder (guest checkout)', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const pizza = await createProduct(app, merchant, { name: 'Pizza', price: 1150, stock: 100 })
  const soda = await createProduct(app, merchant, { name: 'Soda', price: 300, stock: 100 })
  const body = (items: GuestOrderBody['items'], extra: Partial<GuestOrderBody> = {}): GuestOrderBody =>
    ({ items, customer: { name: 'Bo', phone: '+15550100', email: 'bo@example.com' }, deliveryMethod: 'DELIVERY', address: '1 Main St', paymentMethod: 'CARD', ...extra })
  const stockOf = async (id: string) => (await app.db.select().from(products).where(eq(products.id, id)))[0].stock

  t.test('prices on the server, ignores client prices, merges duplicate lines', async (t) => {
    const forged = [{ productId: pizza.id, quantity: 1, unitPrice: 1, total: 1 }, { productId: soda.id, quantity: 2 }, { productId: pizza.id, quantity: 1 }] as GuestOrderBody['items']
    const order = await createOrder(app.db, merchant.businessId, { ...body(forged), amount: 1 } as GuestOrderBody)
    t.match(order, { subtotal: 2 * 1150 + 2 * 300, deliveryFee: DELIVERY_FEE, discount: 0, amount: 2900 + DELIVERY_FEE, status: 'PENDING', paymentStatus: 'PENDING', orderNumber: '1001', address: '1 Main St' })
    t.same(order.items.map((i) => [i.name, i.quantity, i.unitPrice, i.total]).sort(), [['Pizza', 2, 1150, 2300], ['Soda', 2, 300, 600]])
    t.equal(await stockOf(pizza.id), 98)
    const created = await eventsOf(app, merchant.businessId, 'order.created')
    t.equal(created.length, 1, 'order.created written once')
    t.same(created[0].data, { orderId: order.id, orderNumber: '1001', amount: order.amount, deliveryFee: DELIVERY_FEE, deliveryMethod: 'DELIVERY', paymentMethod: 'CARD', isGuest: true, createdAt: order.createdAt, status: 'PENDING' })
    const [business] = await app.db.select().from(businesses).where(eq(businesses.id, merchant.businessId))
    t.equal(business.lastOrderNumber, 1001)
    const pickup = await createOrder(app.db, merchant.businessId, body([{ productId: soda.id, quantity: 1 }], { deliveryMethod: 'PICKUP', address: undefined }))
    t.match(pickup, { orderNumber: '1002', deliveryFee: 0, amount: 300 })
  })

  t.test('refuses unknown, foreign and unavailable products (422) and short stock (409); nothing written', async (t) => {
    const theirs = await createProduct(app, other, { name: 'Theirs' })
    const hidden = await createProduct(app, merchant, { name: 'Hidden', isAvailable: false })
    const before = await eventNames(app, merchant.businessId)
    for (const productId of ['prod_nope', theirs.id, hidden.id]) {
      await t.rejects(createOrder(app.db, merchant.businessId, body([{ productId, quantity: 1 }])), { message: /./, statusCode: 422, extra: { productId } })
    }
    // the first line would take stock and emit inventory events; the second fails: all of it rolls back
    const scarce = await createProduct(app, merchant, { name: 'Scarce', stock: 3, lowStockThreshold: 5 })
    const lastOne = await createProduct(app, merchant, { name: 'Last one', stock: 1, lowStockThreshold: 0 })
    const mark = (await eventNames(app, merchant.businessId)).length
    await t.rejects(createOrder(app.db, merchant.businessId, body([{ productId: lastOne.id, quantity: 1 }, { productId: scarce.id, quantity: 4 }])),
      { message: /Not enough stock/, statusCode: 409, extra: { productId: scarce.id, available: 3 } })
    t.equal(await stockOf(lastOne.id), 1, 'stock taken by the first line is back')
    t.equal((await eventNames(app, merchant.businessId)).length, mark, 'no out_of_stock or order.created from the rolled-back order')
    await t.rejects(createOrder(app.db, merchant.businessId, body([{ productId: pizza.id, quantity: 1 }], { address: ' ' })), { message: /./, statusCode: 400 })
    await t.rejects(createOrder(app.db, merchant.businessId, body([{ productId: pizza.id, quantity: 0 }])), { message: /./, statusCode: 400 })
    await t.rejects(createOrder(app.db, merchant.businessId, body([{ productId: pizza.id, quantity: 1 }], { paymentMethod: 'BITCOIN' })), { message: /./, statusCode: 422 })
    t.same((await eventNames(app, merchant.businessId)).filter((e) => e === 'order.created').length, before.filter((e) => e === 'order.created').length)
  })

  t.test('stock events fire once when crossing, not on every change', async (t) => {
    const item = await createProduct(app, merchant, { name: 'Muffin', price: 200, stock: 10, lowStockThreshold: 5 })
    const inventory = async () => (await eventsOf(app, merchant.businessId)).filter((e) => e.event.startsWith('product.') && e.data.productId === item.id)
      .map((e) => [e.event, e.data.stock])
    const buy = (quantity: number) => createOrder(app.db, merchant.businessId, body([{ productId: item.id, quantity }], { deliveryMethod: 'PICKUP' }))
    await buy(4) // 10 → 6: above the threshold
    t.same(await inventory(), [])
    await buy(1) // 6 → 5: crosses
    await buy(2) // 5 → 3: already low
    t.same(await inventory(), [['product.low_stock', 5]], 'low_stock once')
    await buy(3) // 3 → 0
    t.same(await inventory(), [['product.low_stock', 5], ['product.out_of_stock', 0]])
    await updateProduct(app.db, merchant.businessId, item.id, { stock: 2 }) // 0 → 2
    await updateProduct(app.db, merchant.businessId, item.id, { stock: 4 }) // 2 → 4: no crossing
    await updateProduct(app.db, merchant.businessId, item.id, { lowStockThreshold: 9 }) // threshold alone: nothing
    await updateProduct(app.db, merchant.businessId, item.id, { stock: 20 })
    await updateProduct(app.db, merchant.businessId, item.id, { stock: 9 }) // 20 → 9 with threshold 9: crosses
    t.same(await inventory(), [['product.low_stock', 5], ['product.out_of_stock', 0], ['product.back_in_stock', 2], ['product.low_stock', 9]])
    const [event] = await eventsOf(app, merchant.businessId, 'product.out_of_stock')
    t.same(event.data, { productId: item.id, name: 'Muffin', stock: 0, threshold: 5 })
  })

  t.test('events are not written when the caller rolls back', async (t) => {
    const mark = (await eventNames(app, merchant.businessId)).length
    await t.rejects(app.db.transaction(async (tx) => {
      await createOrder(tx, merchant.businessId, body([{ productId: pizza.id, quantity: 1 }]))
      await updateProduct(tx, merchant.businessId, soda.id, { price: 1 })
      throw new Error('abort')
    }), /abort/)
    t.equal((await eventNames(app, merchant.businessId)).length, mark)
    t.equal((await app.db.select().from(products).where(eq(products.id, soda.id)))[0].price, 300)
  })

  t.test('a pipeline may change the fee, add a discount, accept app methods or refuse', async (t) => {
    const seen: unknown[] = []
    const pipeline: CheckoutPipeline = {
      quote: async (ctx) => { seen.push(ctx); return { deliveryFee: 150, discount: 100_000, reason: 'VIP' } },
      paymentMethods: async () => ['app_x:wallet'],
      validate: async (ctx) => ctx.items.length > 1 ? { valid: false, reason: 'One item per order' } : { valid: true }
    }
    const order = await createOrder(app.db, merchant.businessId, body([{ productId: pizza.id, quantity: 1 }], { paymentMethod: 'app_x:wallet', locality: 'Downtown' }), pipeline)
    t.match(order, { subtotal: 1150, deliveryFee: 150, discount: 1150, amount: 150, paymentMethod: 'app_x:wallet', paymentStatus: 'PENDING' }, 'discount capped at the subtotal')
    t.match(seen[0], { deliveryFee: DELIVERY_FEE, subtotal: 1150, locality: 'Downtown' }, 'the quote step sees the built-in fee')
    await t.rejects(createOrder(app.db, merchant.businessId, body([{ productId: pizza.id, quantity: 1 }, { productId: soda.id, quantity: 1 }]), pipeline),
      { statusCode: 422, message: 'One item per order' })

    await attachPaymentSession(app.db, merchant.businessId, order.id, { invoiceId: 'inv_1', expiresAt: new Date(Date.now() + 60_000) })
    t.match(await completePayment(app.db, merchant.businessId, order.id, 'inv_1'), { paymentStatus: 'COMPLETED' })
    await t.rejects(completePayment(app.db, merchant.businessId, order.id), { message: /./, statusCode: 409 }, 'only once')
    const [paid] = await eventsOf(app, merchant.businessId, 'payment.completed')
    t.same(paid.data, { orderId: order.id, invoiceId: 'inv_1', amount: 150, currency: 'USD', paymentMethodId: 'app_x:wallet' })

    const unpaid = await createOrder(app.db, merchant.businessId, body([{ productId: soda.id, quantity: 1 }], { paymentMethod: 'app_x:wallet' }), pipeline)
    await t.rejects(expirePayment(app.db, other.businessId, unpaid.id), { message: /./, statusCode: 404 }, "another business can't touch it")
    t.match(await expirePayment(app.db, merchant.businessId, unpaid.id), { paymentStatus: 'EXPIRED' })
    t.equal((await eventsOf(app, merchant.businessId, 'payment.expired')).length, 1)
    const cash = await createOrder(app.db, merchant.businessId, body([{ productId: soda.id, quantity: 1 }]))
    await t.rejects(completePayment(app.db, merchant.businessId, cash.id), { message: /./, statusCode: 409 }, 'built-in methods are not settled by apps')
  })
})
