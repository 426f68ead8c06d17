import t from 'tap'
import {
  API_VERSION_RELEASES, API_VERSIONS, DOMAIN_API_VERSION, LATEST_API_VERSION,
  downgrade, isApiVersion, present, shapeChanges, shapeOfTitle, showsAsRecorded, upgrade
} from '../../../sdk/src/contract/api-versions.ts'

// The version transforms on plain values (money as integers in 2026-11, { amount, currency } from 2026-12);
// test/plugins/api-versions/ shows them on the App API, the deliveries and the hooks.
const usd = (amount: number) => ({ amount, currency: 'USD' })
const context = { currency: 'EUR' }

const order2611 = {
  id: 'ord_1', currency: 'USD', subtotal: 1000, deliveryFee: 300, discount: 100, promoDiscount: 0, amount: 1200, status: 'PENDING',
  items: [{ productId: 'prod_1', name: 'Tea', quantity: 2, unitPrice: 500, total: 1000 }]
}
const order2612 = {
  ...order2611, subtotal: usd(1000), deliveryFee: usd(300), discount: usd(100), promoDiscount: usd(0), amount: usd(1200),
  items: [{ productId: 'prod_1', name: 'Tea', quantity: 2, unitPrice: usd(500), total: usd(1000) }]
}

t.test('the registry: oldest first, the newest is the latest, the first is the records\' shape', async (t) => {
  t.same(API_VERSION_RELEASES.map((release) => release.version), [...API_VERSIONS].sort())
  t.equal(API_VERSION_RELEASES.at(-1)?.version, LATEST_API_VERSION)
  t.equal(API_VERSION_RELEASES[0].version, DOMAIN_API_VERSION)
  t.same(API_VERSION_RELEASES[0].changes, [], 'the first version changes nothing')
  t.ok(isApiVersion('2026-11'))
  t.notOk(isApiVersion('2026-10'))
  t.notOk(isApiVersion(202611))
})

t.test('an order goes down to integers and back up to money objects, items included', async (t) => {
  t.same(downgrade('Order', order2612, '2026-11'), order2611)
  t.same(upgrade('Order', order2611, '2026-11', context), order2612, 'the order\'s own currency wins over the context\'s')
  t.same(present('Order', order2611, context), order2612, 'a record shows in the newest shape')
  t.same(downgrade('Order', order2612, '2026-12'), order2612, 'the newest version is the identity')
  t.same(upgrade('Order', order2612, '2026-12', context), order2612)
  t.same(order2611.items[0].unitPrice, 500, 'the input is not changed in place')
})

t.test('what carries no currency takes the context\'s', async (t) => {
  t.same(present('Product', { id: 'prod_1', price: 250 }, context), { id: 'prod_1', price: { amount: 250, currency: 'EUR' } })
  t.same(present('event:product.updated', { price: 250 }, context), { price: { amount: 250, currency: 'EUR' } })
  t.same(present('event:order.created', { amount: 1200, deliveryFee: 300, subtotal: 900 }, context),
    { amount: { amount: 1200, currency: 'EUR' }, deliveryFee: { amount: 300, currency: 'EUR' }, subtotal: 900 }, 'an order event\'s amount and fee only')
  t.same(present('event:payment.completed', { amount: 1200, currency: 'GBP' }, context), { amount: { amount: 1200, currency: 'GBP' }, currency: 'GBP' })
})

t.test('hook payloads and answers, and 2026-11\'s string amount of create_payment', async (t) => {
  t.same(downgrade('hook:checkout.create_payment', { amount: usd(1234), orderId: 'ord_1' }, '2026-11'), { amount: '1234', orderId: 'ord_1' })
  t.same(upgrade('hook:checkout.create_payment', { amount: '1234' }, '2026-11', context), { amount: { amount: 1234, currency: 'EUR' } })
  t.same(upgrade('hook:checkout.create_payment', { amount: '12.5' }, '2026-11', context), { amount: '12.5' }, 'not minor units: left for validation to refuse')
  t.same(downgrade('hook:checkout.shipping_rates', { subtotal: usd(900), builtInFee: usd(300), deliveryMethod: 'DELIVERY' }, '2026-11'),
    { subtotal: 900, builtInFee: 300, deliveryMethod: 'DELIVERY' })
  t.same(upgrade('answer:checkout.shipping_rates', { fee: 0 }, '2026-11', context), { fee: { amount: 0, currency: 'EUR' } })
  t.same(upgrade('answer:order.calculate_discounts', { discount: 50, reason: 'loyalty' }, '2026-11', context), { discount: { amount: 50, currency: 'EUR' }, reason: 'loyalty' })
  t.same(downgrade('answer:order.calculate_discounts', { discount: 50 }, '2026-11'), { discount: 50 }, 'an answer given as an integer stays one')
})

t.test('shapes no change touches, and values that are not objects, pass as they are', async (t) => {
  const webhook = { id: 'wh_1', url: 'https://app.example.com/h' }
  t.equal(downgrade('WebhookRegistration', webhook, '2026-11'), webhook)
  t.equal(upgrade('event:app.uninstalled', webhook, '2026-11', context), webhook)
  for (const value of [null, 'text', 42, [1, 2]]) {
    t.same(downgrade('Order', value, '2026-11'), value, JSON.stringify(value))
    t.same(upgrade('Order', value, '2026-11', context), value, JSON.stringify(value))
  }
  t.same((downgrade('Order', { ...order2612, items: 'none' }, '2026-11') as { items: unknown }).items, 'none', 'items that are no array stay')
})

t.test('shapeChanges, showsAsRecorded and shapeOfTitle', async (t) => {
  t.ok(shapeChanges('Order', '2026-11'))
  t.notOk(shapeChanges('Order', '2026-12'))
  t.notOk(shapeChanges('WebhookRegistration', '2026-11'))
  t.ok(showsAsRecorded('Order', '2026-11'))
  t.notOk(showsAsRecorded('Order', '2026-12'))
  t.ok(showsAsRecorded('WebhookRegistration', '2026-12'))
  t.equal(shapeOfTitle('Order_2026-12'), 'Order')
  t.equal(shapeOfTitle('Order'), 'Order')
  t.equal(shapeOfTitle('Order_v2'), 'Order_v2')
})
