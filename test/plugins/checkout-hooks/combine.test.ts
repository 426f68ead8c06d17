import t from 'tap'
import { createHmac } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { hookCalls } from '../../../server/db/schema/index.ts'
import { build, registerUser, REVIEWER_ENV, portsOf } from '../../helper.ts'
import { startAppServer, installHookApp, shop, cart, customer } from './fixtures.ts'

t.test('hooks at checkout: order, combination, signatures', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)

  const first = await startAppServer(t, {
    '/base/rates': ({ body }) => ({ json: { fee: body.data.builtInFee + 100 } }),
    '/base/discounts': () => ({ json: { discount: 500, reason: 'Loyalty: 5.00 off' } }),
    '/base/methods': () => ({ json: { methods: [{ id: 'qr', name: 'QR pay' }, { id: 'qr', name: 'duplicate' }] } }),
    '/base/validate': () => ({ json: { valid: true } })
  })
  const second = await startAppServer(t, {
    '/base/rates': ({ body }) => ({ json: { fee: body.data.builtInFee * 2 } }),
    '/base/discounts': () => ({ json: { discount: 100000, reason: 'Too generous' } }),
    '/base/methods': () => ({ json: { methods: [{ id: 'qr', name: 'Other QR', icon: 'https://cdn.example.com/qr.png' }] } }),
    '/base/validate': () => ({ json: { valid: true } })
  })
  const scopes = ['write_shipping', 'write_discounts', 'write_payments', 'read_orders']
  const hooksOf = (priority: number) => [
    { hookPoint: 'checkout.shipping_rates', url: '/rates', priority },
    { hookPoint: 'order.calculate_discounts', url: '/discounts', priority },
    { hookPoint: 'checkout.payment_methods', url: '/methods', priority },
    { hookPoint: 'order.validate', url: '/validate', priority }
  ]
  // installed second but with the lower priority: it must run first
  const late = await installHookApp(app, developer, merchant, second.url, hooksOf(200), scopes)
  const early = await installHookApp(app, developer, merchant, first.url, hooksOf(10), scopes)

  const quote = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })
  t.equal(quote.statusCode, 200)
  const body = quote.json()
  t.equal(body.subtotal, 2700)
  t.equal(body.deliveryFee, (300 + 100) * 2, 'shipping rates chain: priority 10 sees the built-in fee, priority 200 sees its answer')
  t.equal(body.appDiscount, 2700, 'discounts add up, capped at the subtotal')
  t.same(body.discountReasons, ['Loyalty: 5.00 off', 'Too generous'])
  t.equal(body.total, 800)
  t.same(body.paymentMethods.map((m: { id: string }) => m.id), ['CASH', 'CARD', `${early.installed.installationId}:qr`, `${late.installed.installationId}:qr`], 'union, namespaced per app, duplicates within an app dropped')

  const rateCalls = [...first.calls, ...second.calls].filter((c) => c.path === '/base/rates').sort((a, b) => a.at - b.at)
  t.same(rateCalls.map((c) => c.body.data.builtInFee), [300, 400], 'arrival order follows priority')

  const call = first.calls.find((c) => c.path === '/base/rates')!
  t.match(call.body, { hookPoint: 'checkout.shipping_rates', businessId: merchant.businessId, timestamp: String, data: { deliveryMethod: 'DELIVERY', locality: 'Downtown', subtotal: 2700, builtInFee: 300 } })
  const timestamp = call.headers['x-webhook-timestamp'] as string
  const expected = `sha256=${createHmac('sha256', early.installed.webhookSecret).update(`${timestamp}.${call.raw}`).digest('hex')}`
  t.equal(call.headers['x-webhook-signature'], expected, 'signed with the installation webhook secret, checked independently')
  t.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 5)
  t.equal(call.headers['user-agent'], 'Service-Webhooks/1.0')

  const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
  t.equal(placed.statusCode, 201)
  t.match(placed.json().order, { subtotal: 2700, deliveryFee: 800, discount: 2700, amount: 800, paymentMethod: 'CASH', status: 'PENDING' })
  t.notOk('payment' in placed.json())
  const validations = [...first.calls, ...second.calls].filter((c) => c.path === '/base/validate').sort((a, b) => a.at - b.at)
  t.equal(validations.length, 2)
  t.same(validations[0].body.data, { items: [{ productId: pizza.id, quantity: 2 }, { productId: soda.id, quantity: 1 }].sort((a, b) => a.productId.localeCompare(b.productId)), subtotal: 2700, deliveryMethod: 'DELIVERY' })

  await portsOf(app).checkoutHooks.flush()
  const logged = await app.db.select().from(hookCalls).where(eq(hookCalls.installationId, early.installed.installationId))
  // quote: rates, discounts, methods; order (CASH): rates, discounts, validate
  t.same(logged.map((row) => row.hookPoint).sort(), ['checkout.payment_methods', 'checkout.shipping_rates', 'checkout.shipping_rates', 'order.calculate_discounts', 'order.calculate_discounts', 'order.validate'], 'every call is logged')
  t.ok(logged.every((row) => row.success && row.statusCode === 200 && row.durationMs >= 0))
})

t.test('hooks of an uninstalled app, or without the scope, are not called', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, { '/base/rates': () => ({ json: { fee: 1 } }) })
  const hooked = await installHookApp(app, developer, merchant, server.url, [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }], ['write_shipping'])
  t.equal((await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })).json().deliveryFee, 1)
  await app.inject({ method: 'DELETE', url: `/merchant/installations/${hooked.installed.installationId}`, headers: merchant.auth })
  const calls = server.calls.length
  t.equal((await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })).json().deliveryFee, 300, 'built-in fee again')
  t.equal(server.calls.length, calls, 'no call after uninstall')
})

t.test('a hook answer in another currency is refused, not applied in the checkout\'s', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, {
    '/base/rates': () => ({ json: { fee: { amount: 50, currency: 'JPY' } } }),
    '/base/discounts': () => ({ json: { discount: { amount: 100, currency: 'usd' }, reason: 'Same currency, any case' } })
  })
  const hooked = await installHookApp(app, developer, merchant, server.url, [
    { hookPoint: 'checkout.shipping_rates', url: '/rates' }, { hookPoint: 'order.calculate_discounts', url: '/discounts' }
  ], ['write_shipping', 'write_discounts'])
  const quote = (await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })).json()
  t.equal(quote.deliveryFee, 300, '50 JPY is not taken as 50 cents: the built-in fee stays')
  t.equal(quote.appDiscount, 100, 'an answer in the business\'s own currency is applied')
  await portsOf(app).checkoutHooks.flush()
  const logged = await app.db.select().from(hookCalls).where(eq(hookCalls.installationId, hooked.installed.installationId))
  const rates = logged.find((row) => row.hookPoint === 'checkout.shipping_rates')
  t.equal(rates?.success, false)
  t.match(rates?.error, /fee is in JPY/)
})
