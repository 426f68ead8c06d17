import t from 'tap'
import { signedHeaders } from '@app-platform/sdk'
import { install, stage } from './fixture.ts'
import { FLAT_DELIVERY_FEE, LOYALTY_PERCENT, MAX_QUANTITY_PER_ITEM, loyaltyDiscount, shippingRate, validateOrder } from '../src/checkout-rules.ts'

t.test('checkout rules', async (t) => {
  t.same(shippingRate({ deliveryMethod: 'PICKUP', subtotal: 100, builtInFee: 0 }), { fee: 0 }, 'pickup keeps the fee so far')
  t.same(shippingRate({ deliveryMethod: 'DELIVERY', subtotal: 2999, builtInFee: 500 }), { fee: FLAT_DELIVERY_FEE })
  t.same(shippingRate({ deliveryMethod: 'DELIVERY', subtotal: 3000, builtInFee: 500 }), { fee: 0 }, 'free from 30.00')
  t.same(loyaltyDiscount({ items: [], subtotal: 1999, promoDiscount: 0, deliveryFee: 0 }), { discount: 0 })
  t.match(loyaltyDiscount({ items: [], subtotal: 2345, promoDiscount: 0, deliveryFee: 0 }), { discount: 234, reason: /Loyalty reward/ })
  t.same(validateOrder({ items: [{ productId: 'p', quantity: MAX_QUANTITY_PER_ITEM }], subtotal: 1, deliveryMethod: 'PICKUP' }), { valid: true })
  t.match(validateOrder({ items: [{ productId: 'p', quantity: MAX_QUANTITY_PER_ITEM + 1 }], subtotal: 1, deliveryMethod: 'PICKUP' }), { valid: false, reason: String })
})

t.test('a storefront checkout runs the reference app’s five hooks', async (t) => {
  const s = await stage(t)
  const installation = await install(s)
  const store = (path: string, payload: Record<string, unknown>) => s.platform.storefront.inject({ method: 'POST', url: `/store/${s.merchant.slug}/api/${path}`, payload })
  const products = (await s.platform.storefront.inject({ url: `/store/${s.merchant.slug}/api/products` })).json().data as Array<{ id: string, name: string, price: number }>
  const pizza = products.find((p) => p.name === 'Margherita Pizza')
  if (pizza === undefined) throw new Error('no sample pizza')

  const small = (await store('checkout/quote', { items: [{ productId: pizza.id, quantity: 2 }], deliveryMethod: 'DELIVERY', address: '1 Main St' })).json()
  t.match(small, { subtotal: 2300, deliveryFee: FLAT_DELIVERY_FEE, appDiscount: 230, total: 2300 + FLAT_DELIVERY_FEE - 230 }, 'shipping_rates and calculate_discounts')
  t.match(small.discountReasons, [/Loyalty reward: 10% off/])
  t.ok(small.paymentMethods.some((m: { id: string, provider: string }) => m.id === `${installation.installationId}:demo-wallet` && m.provider === 'app'), 'payment_methods adds the Demo Wallet')
  const big = (await store('checkout/quote', { items: [{ productId: pizza.id, quantity: 3 }], deliveryMethod: 'DELIVERY', address: '1 Main St' })).json()
  t.match(big, { subtotal: 3450, deliveryFee: 0, appDiscount: 3450 * LOYALTY_PERCENT / 100 }, 'free delivery from 30.00')

  const refused = await store('orders', { items: [{ productId: pizza.id, quantity: MAX_QUANTITY_PER_ITEM + 1 }], customer: { name: 'Greedy' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' })
  t.equal(refused.statusCode, 422, 'order.validate refuses')
  t.match(refused.json().message, /At most 10 of one item/)

  const placed = await store('orders', {
    items: [{ productId: pizza.id, quantity: 2 }], customer: { name: 'Wallet User' }, deliveryMethod: 'PICKUP', paymentMethod: `${installation.installationId}:demo-wallet`
  })
  t.equal(placed.statusCode, 201, placed.body)
  const { order, payment } = placed.json()
  t.match(payment, { paymentUrl: new RegExp(`^${s.appUrl}/pay/inv_`), invoiceId: /^inv_/, expiresAt: String }, 'create_payment opened a payment page')
  // the README's confirmation shows a QR code: the answer's qrCode (the payment page), drawn by the storefront
  t.equal(payment.qrCode, payment.paymentUrl, 'create_payment answers a qrCode: the payment page a phone opens')
  t.match(payment.qrImage, /^data:image\/svg\+xml;base64,/, 'which the storefront draws as a QR image')
  t.equal(order.paymentStatus, 'PENDING')

  const pay = await fetch(payment.paymentUrl)
  t.equal(pay.status, 200)
  t.match(await pay.text(), /Pay 20\.70 USD/, 'the amount after the loyalty discount')
  const paid = await fetch(payment.paymentUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' })
  t.equal(paid.status, 303)
  t.match(await (await fetch(payment.paymentUrl)).text(), /data-paid/)
  const after = (await s.platform.inject({ url: `/merchant/orders/${order.id}`, headers: s.merchant.auth })).json()
  t.equal(after.paymentStatus, 'COMPLETED', 'the app reported the payment with the App API')
  t.equal((await fetch(`${s.appUrl}/pay/inv_unknown`)).status, 404)
})

t.test('POST /webhooks/hooks/* answer only signed calls for a known business', async (t) => {
  const s = await stage(t)
  const installation = await install(s)
  const body = JSON.stringify({ hookPoint: 'order.validate', businessId: installation.businessId, timestamp: new Date().toISOString(), data: { items: [], subtotal: 0, deliveryMethod: 'PICKUP' } })
  const post = (path: string, headers: Record<string, string>, payload = body) => fetch(`${s.appUrl}/webhooks${path}`, { method: 'POST', headers, body: payload })
  const ok = await post('/hooks/validate', signedHeaders(body, installation.webhookSecret))
  t.equal(ok.status, 200)
  t.same(await ok.json(), { valid: true })
  t.equal((await post('/hooks/validate', signedHeaders(body, 'whsec_wrong'))).status, 401, 'a wrong secret')
  t.equal((await post('/hooks/validate', { 'content-type': 'application/json' })).status, 401, 'no signature')
  const stale = signedHeaders(body, installation.webhookSecret, Math.floor(Date.now() / 1000) - 3600)
  t.equal((await post('/hooks/validate', stale)).status, 401, 'a stale timestamp')
  t.equal((await post('/hooks/discounts', signedHeaders(body, installation.webhookSecret))).status, 400, 'another hook point’s path')
  const stranger = body.replace(installation.businessId, 'biz_stranger')
  t.equal((await post('/hooks/validate', signedHeaders(stranger, installation.webhookSecret), stranger)).status, 401, 'a business that did not install the app')
})
