import t from 'tap'
import { build } from '../../helper.ts'
import { createProduct, newMerchant } from './fixtures.ts'

t.test('/merchant/promo-codes', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const post = (payload: Record<string, unknown>, session = merchant) => app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: session.auth, payload })

  t.test('creates a code stored upper case, lists it in the envelope', async (t) => {
    const created = await post({ code: 'spring10', percentOff: 10, minSubtotal: 1000 })
    t.equal(created.statusCode, 201)
    t.match(created.json(), { id: /^promo_/, code: 'SPRING10', percentOff: 10, amountOff: null, minSubtotal: 1000, active: true, expiresAt: null })
    const list = await app.inject({ url: '/merchant/promo-codes?limit=500', headers: merchant.auth })
    t.equal(list.statusCode, 200)
    t.match(list.json(), { total: 1, page: 1, limit: 100, data: [{ code: 'SPRING10' }] })
  })

  t.test('refuses a code that differs only by case (409), but another business may use it', async (t) => {
    const again = await post({ code: 'Spring10', amountOff: 500 })
    t.equal(again.statusCode, 409)
    t.match(again.json(), { statusCode: 409, error: 'Conflict', message: /already has this promo code/ })
    t.equal((await post({ code: 'SPRING10', amountOff: 500 }, other)).statusCode, 201)
  })

  t.test('validates the body: exactly one kind, percent 1–100, a code of letters and digits', async (t) => {
    for (const payload of [
      { code: 'BOTH1', percentOff: 10, amountOff: 100 },
      { code: 'NONE1' },
      { code: 'BIG1', percentOff: 101 },
      { code: 'ZERO1', percentOff: 0 },
      { code: 'FREE1', amountOff: 0 },
      { code: 'has space', percentOff: 5 },
      { code: 'EXP1', percentOff: 5, expiresAt: 'tomorrow' }
    ]) {
      const response = await post(payload)
      t.equal(response.statusCode, 400, JSON.stringify(payload))
      t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: String })
    }
  })

  t.test('updates and deletes; another business\'s code is a 404', async (t) => {
    const created = (await post({ code: 'FLAT5', amountOff: 500 })).json()
    const url = `/merchant/promo-codes/${created.id as string}`
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await app.inject({ method, url, headers: other.auth, ...(method === 'PATCH' ? { payload: { active: false } } : {}) })
      t.equal(response.statusCode, 404, `${method} by another merchant`)
      t.match(response.json(), { message: 'Promo code not found' })
    }
    const switched = await app.inject({ method: 'PATCH', url, headers: merchant.auth, payload: { active: false, percentOff: 20, amountOff: null } })
    t.equal(switched.statusCode, 200)
    t.match(switched.json(), { active: false, percentOff: 20, amountOff: null })
    const both = await app.inject({ method: 'PATCH', url, headers: merchant.auth, payload: { amountOff: 100 } })
    t.equal(both.statusCode, 400, 'a patch that would leave both kinds set')
    t.equal((await app.inject({ method: 'DELETE', url, headers: merchant.auth })).statusCode, 204)
    t.equal((await app.inject({ url, headers: merchant.auth })).statusCode, 404)
  })

  t.test('needs a merchant', async (t) => {
    t.equal((await app.inject({ url: '/merchant/promo-codes' })).statusCode, 401)
  })
})

t.test('promoCode at the storefront checkout', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const slug = (await app.inject({ url: '/auth/me', headers: merchant.auth })).json().business.slug as string
  const pizza = await createProduct(app, merchant, { name: 'Pizza', price: 1200, stock: 50 })
  const code = async (payload: Record<string, unknown>, session = merchant) =>
    (await app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: session.auth, payload })).json()
  await code({ code: 'SPRING10', percentOff: 10 })
  await code({ code: 'HUGE', amountOff: 100_000 })
  await code({ code: 'BIGCART', amountOff: 500, minSubtotal: 5000 })
  await code({ code: 'PAUSED', percentOff: 50, active: false })
  await code({ code: 'OLD', percentOff: 50, expiresAt: new Date(Date.now() - 60_000).toISOString() })
  await code({ code: 'THEIRS', percentOff: 50 }, other)
  const cart = (promoCode?: string) => ({ items: [{ productId: pizza.id, quantity: 2 }], deliveryMethod: 'PICKUP', ...(promoCode === undefined ? {} : { promoCode }) })
  const quote = (promoCode?: string) => app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(promoCode) })

  t.test('a valid code, any case, sets promoDiscount before the total', async (t) => {
    const response = await quote('spring10')
    t.equal(response.statusCode, 200)
    t.match(response.json(), { subtotal: 2400, promoCode: 'SPRING10', promoDiscount: 240, appDiscount: 0, deliveryFee: 0, total: 2160 })
    t.match((await quote()).json(), { promoCode: null, promoDiscount: 0, total: 2400 }, 'no code, no discount')
    t.match((await quote('  ')).json(), { promoCode: null, promoDiscount: 0 }, 'a blank code is no code')
  })

  t.test('an amount off is capped at the subtotal', async (t) => {
    t.match((await quote('HUGE')).json(), { promoDiscount: 2400, total: 0 })
  })

  t.test('unknown, inactive, expired, below the minimum and another store\'s codes are 422 naming the field', async (t) => {
    for (const [promoCode, message] of [
      ['NOPE', /"NOPE" does not exist/], ['THEIRS', /"THEIRS" does not exist/], ['paused', /PAUSED is not active/],
      ['OLD', /OLD has expired/], ['BIGCART', /BIGCART needs a subtotal of at least 50\.00 USD/]
    ] as const) {
      const response = await quote(promoCode)
      t.equal(response.statusCode, 422, promoCode)
      t.match(response.json(), { statusCode: 422, error: 'Unprocessable Entity', message, field: 'promoCode' })
    }
  })

  t.test('the order stores the code and its discount; the merchant sees them', async (t) => {
    const placed = await app.storefront.inject({
      method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart('Spring10'), customer: { name: 'Ada' }, paymentMethod: 'CASH' }
    })
    t.equal(placed.statusCode, 201)
    t.match(placed.json().order, { subtotal: 2400, discount: 240, promoCode: 'SPRING10', promoDiscount: 240, amount: 2160 })
    const seen = await app.inject({ url: `/merchant/orders/${placed.json().order.id as string}`, headers: merchant.auth })
    t.match(seen.json(), { promoCode: 'SPRING10', promoDiscount: 240, discount: 240 })
    const refused = await app.storefront.inject({
      method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart('OLD'), customer: { name: 'Ada' }, paymentMethod: 'CASH' }
    })
    t.equal(refused.statusCode, 422)
    t.match(refused.json(), { field: 'promoCode', message: /expired/ })
    const orders = await app.inject({ url: '/merchant/orders', headers: merchant.auth })
    t.equal(orders.json().total, 1, 'a refused code places nothing')
  })
})
