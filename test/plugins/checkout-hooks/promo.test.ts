import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { startAppServer, installHookApp, shop, cart, customer } from './fixtures.ts'

t.test('a promo code runs before the apps\' discounts, which receive it', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const created = await app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: merchant.auth, payload: { code: 'SPRING10', percentOff: 10 } })
  t.equal(created.statusCode, 201)

  // the app gives what the promo code left of the subtotal, to show the cap applies after the promo
  const receiver = await startAppServer(t, {
    '/base/discounts': ({ body }) => ({ json: { discount: body.data.subtotal, reason: `Loyalty on top of ${String(body.data.promoDiscount)}` } })
  })
  await installHookApp(app, developer, merchant, receiver.url, [{ hookPoint: 'order.calculate_discounts', url: '/discounts', priority: 10 }], ['write_discounts'])

  const quote = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: { ...cart(pizza.id, soda.id), promoCode: 'spring10' } })
  t.equal(quote.statusCode, 200)
  t.match(quote.json(), { subtotal: 2700, promoCode: 'SPRING10', promoDiscount: 270, appDiscount: 2430, discountReasons: ['Loyalty on top of 270'], deliveryFee: 300, total: 300 })
  const call = receiver.calls.find((c) => c.path === '/base/discounts')
  t.match(call?.body, { hookPoint: 'order.calculate_discounts', data: { subtotal: 2700, promoDiscount: 270, deliveryFee: 300 } }, 'the hook receives the promo discount, already applied')

  const placed = await app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), promoCode: 'SPRING10', customer, paymentMethod: 'CASH' }
  })
  t.equal(placed.statusCode, 201)
  t.match(placed.json().order, { subtotal: 2700, discount: 2700, promoCode: 'SPRING10', promoDiscount: 270, amount: 300 })
  t.equal(receiver.calls.filter((c) => c.path === '/base/discounts').at(-1)?.body.data.promoDiscount, 270, 'the order\'s checkout passes it too')

  const refused = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: { ...cart(pizza.id, soda.id), promoCode: 'WRONG' } })
  t.equal(refused.statusCode, 422)
  t.equal(receiver.calls.filter((c) => c.path === '/base/discounts').length, 2, 'a refused code calls no app')
})
