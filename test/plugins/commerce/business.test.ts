import t from 'tap'
import { eq } from 'drizzle-orm'
import { orders } from '../../../server/db/schema/index.ts'
import { createOrder } from '../../../plugins/commerce/checkout-service.ts'
import { build, registerUser } from '../../helper.ts'
import { createProduct, newMerchant } from './fixtures.ts'

t.test('GET and PATCH /merchant/business', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const call = (method: 'GET' | 'PATCH', payload?: object, session = merchant) =>
    app.inject({ method, url: '/merchant/business', headers: session.auth, ...(payload !== undefined ? { payload } : {}) })

  const got = await call('GET')
  t.equal(got.statusCode, 200)
  t.same(Object.keys(got.json()).sort(), ['address', 'currency', 'email', 'id', 'locale', 'name', 'phone', 'slug', 'storefrontUrl', 'timezone', 'type'])
  t.match(got.json(), { id: merchant.businessId, currency: 'USD', timezone: 'UTC', type: 'RESTAURANT', email: merchant.email.toLowerCase(), storefrontUrl: `http://${got.json().slug as string}.localhost:3001/store/${got.json().slug as string}` })

  const patched = await call('PATCH', { name: 'New Name', currency: 'EUR', timezone: 'Europe/Paris', locale: 'fr-FR', phone: '+33 1 23', address: '1 Rue' })
  t.equal(patched.statusCode, 200)
  t.match(patched.json(), { name: 'New Name', currency: 'EUR', timezone: 'Europe/Paris', locale: 'fr-FR', slug: got.json().slug })
  for (const [name, body] of [
    ['an unknown time zone', { timezone: 'Mars/Olympus' }],
    ['a lowercase currency', { currency: 'eur' }],
    ['the slug', { slug: 'mine' }],
    ['a 10 000-character name', { name: 'n'.repeat(10_000) }],
    ['a bad email', { email: 'nope' }],
    ['nothing', {}]
  ] as Array<[string, object]>) t.equal((await call('PATCH', body)).statusCode, 400, name)
  t.equal((await call('GET')).json().timezone, 'Europe/Paris', 'refused patches wrote nothing')
  t.equal((await app.inject({ method: 'GET', url: '/merchant/business' })).statusCode, 401)
  // a developer acts as the merchant of their own sandbox, and only of it (DESIGN §16)
  const developer = await registerUser(app, 'DEVELOPER')
  const renamed = await call('PATCH', { name: 'Sandbox renamed' }, developer)
  t.equal(renamed.statusCode, 200)
  t.equal(renamed.json().id, developer.businessId, 'their sandbox')
  t.equal((await call('GET')).json().name, 'New Name', "the merchant's business is untouched")
})

t.test('GET /merchant/analytics/dashboard', async (t) => {
  const app = await build(t)
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const pizza = await createProduct(app, merchant, { name: 'Pizza', price: 1150, stock: 100 })
  const soda = await createProduct(app, merchant, { name: 'Soda', price: 300, stock: 100 })
  const at = async (businessId: string, lines: Array<[string, number]>, createdAt: string, status: 'PENDING' | 'DELIVERED' | 'CANCELLED' = 'PENDING') => {
    const order = await createOrder(app.db, businessId, { items: lines.map(([productId, quantity]) => ({ productId, quantity })), customer: { name: 'C' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' })
    await app.db.update(orders).set({ createdAt: new Date(createdAt), status }).where(eq(orders.id, order.id))
  }
  await at(merchant.businessId, [[pizza.id, 2]], '2025-01-01T10:00:00Z', 'DELIVERED')
  await at(merchant.businessId, [[pizza.id, 1]], '2025-01-02T12:00:00Z', 'CANCELLED')
  await at(merchant.businessId, [[soda.id, 1]], '2025-01-03T23:30:00Z')
  await at(merchant.businessId, [[soda.id, 3]], '2024-12-31T23:59:00Z')
  await at(merchant.businessId, [[soda.id, 2], [pizza.id, 1]], '2025-01-04T02:00:00Z')
  const theirs = await createProduct(app, other, { price: 99_999, stock: 5 })
  await at(other.businessId, [[theirs.id, 1]], '2025-01-02T12:00:00Z')
  const get = (query: string) => app.inject({ method: 'GET', url: `/merchant/analytics/dashboard${query}`, headers: merchant.auth })

  const utc = await get('?from=2025-01-01&to=2025-01-03')
  t.equal(utc.statusCode, 200)
  t.same(utc.json(), {
    from: '2025-01-01',
    to: '2025-01-03',
    revenue: 2600,
    orderCount: 2,
    averageOrderValue: 1300,
    ordersByStatus: { PENDING: 1, CONFIRMED: 0, PREPARING: 0, READY: 0, IN_DELIVERY: 0, DELIVERED: 1, CANCELLED: 1 },
    topProducts: [{ productId: pizza.id, name: 'Pizza', quantity: 2, revenue: 2300 }, { productId: soda.id, name: 'Soda', quantity: 1, revenue: 300 }],
    daily: [{ date: '2025-01-01', revenue: 2300, orders: 1 }, { date: '2025-01-02', revenue: 0, orders: 0 }, { date: '2025-01-03', revenue: 300, orders: 1 }]
  }, 'CANCELLED left out of revenue, empty days zero-filled, other business not counted')

  await app.inject({ method: 'PATCH', url: '/merchant/business', headers: merchant.auth, payload: { timezone: 'America/New_York' } })
  const local = (await get('?from=2025-01-03&to=2025-01-03')).json()
  t.same(local.daily, [{ date: '2025-01-03', revenue: 300 + 600 + 1150, orders: 2 }], 'days are counted in the business time zone')
  t.same(local.topProducts.map((p: { name: string }) => p.name), ['Pizza', 'Soda'])

  const recent = (await get('')).json()
  t.equal(recent.daily.length, 30, 'default: the last 30 days')
  t.equal(recent.daily[29].date, recent.to)
  t.equal(recent.revenue, 0)
  for (const query of ['?from=2025-02-01&to=2025-01-01', '?from=2023-01-01&to=2025-01-01', '?from=2025-13-01', '?from=yesterday']) {
    t.equal((await get(query)).statusCode, 400, query)
  }
  t.equal((await get('?days=3')).statusCode, 200, 'an unknown query parameter is ignored, on every operation alike')
  t.equal((await app.inject({ method: 'GET', url: '/merchant/analytics/dashboard' })).statusCode, 401)
})

t.test('merchants signing up with the same business name at the same moment each get a business and their own slug', async (t) => {
  const app = await build(t, { env: { AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: '100000' } })
  const sessions = await Promise.all(Array.from({ length: 8 }, async () => await registerUser(app, 'MERCHANT', { businessName: 'Same Bakery' })))
  const slugs = await Promise.all(sessions.map(async (session) => (await app.inject({ url: '/merchant/business', headers: session.auth })).json().slug as string))
  t.equal(new Set(slugs).size, 8, 'eight businesses, eight slugs')
  t.ok(slugs.every((slug) => slug.startsWith('same-bakery')), slugs.join(', '))
})
