import t from 'tap'
import { build, registerUser } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'
import { installApp } from '../app-api/fixtures.ts'
import { resourcesFor } from '../../../plugins/activity/service.ts'
import { addMember } from '../auth/staff-helpers.ts'

t.test('GET /merchant/activity', async (t) => {
  const app = await build(t)
  const rosa = await registerUser(app, 'MERCHANT')
  const other = await registerUser(app, 'MERCHANT')
  const product = await createProduct(app, rosa, { name: 'Rosa bread' })
  await app.inject({ method: 'PATCH', url: '/merchant/business', headers: rosa.auth, payload: { name: 'Rosa Bakery' } })

  t.test('records settings changes with what changed', async (t) => {
    const response = await app.inject({ url: '/merchant/activity?resource=settings', headers: rosa.auth })
    t.equal(response.statusCode, 200)
    t.match(response.json().data, [{ action: 'settings.updated', resource: { type: 'settings', id: rosa.businessId }, changes: { name: { to: 'Rosa Bakery' } } }])
  })

  t.test("another business's entries never appear", async (t) => {
    const all = await app.inject({ url: '/merchant/activity', headers: other.auth })
    t.equal(all.statusCode, 200)
    t.notOk(all.json().data.some((entry: { resource: { id: string } }) => entry.resource.id === product.id || entry.resource.id === rosa.businessId))
    const one = await app.inject({ url: `/merchant/activity?resource=product:${product.id}`, headers: other.auth })
    t.same(one.json(), { data: [], limit: 50, nextCursor: null }, "another business's product is an empty timeline")
    const unknown = await app.inject({ url: '/merchant/activity?resource=order:ord_unknown', headers: rosa.auth })
    t.same(unknown.json(), { data: [], limit: 50, nextCursor: null }, 'an unknown order id is an empty list')
  })

  t.test('bad filters are 400 with a code', async (t) => {
    for (const [query, code] of [['actor=robot', 'validation_failed'], ['resource=widget', 'validation_failed'], ['resource=order:', 'validation_failed'],
      ['resource=order:a%20b', 'validation_failed'], ['before=not-a-cursor', 'cursor_invalid'], [`before=${Buffer.from('["x","y"]').toString('base64url')}`, 'cursor_invalid']]) {
      const response = await app.inject({ url: `/merchant/activity?${query}`, headers: rosa.auth })
      t.equal(response.statusCode, 400, query)
      t.equal(response.json().code, code, query)
    }
  })

  t.test('a staff member is named, and sees only the resources of their permissions', async (t) => {
    const sam = await addMember(app, rosa, ['products'])
    t.equal((await app.inject({ method: 'PATCH', url: `/merchant/products/${product.id as string}`, headers: sam.auth, payload: { stock: 3 } })).statusCode, 200)
    const seen = (await app.inject({ url: '/merchant/activity', headers: sam.auth })).json().data as Array<{ resource: { type: string }, actor: { name: string } }>
    t.ok(seen.length >= 2 && seen.every((entry) => entry.resource.type === 'product'), 'products only: the settings change is not theirs to see')
    t.match(seen[0], { action: 'product.updated', actor: { type: 'staff', id: sam.userId, name: 'Sam Staff' }, changes: { stock: { to: 3 } } })
    t.same((await app.inject({ url: '/merchant/activity?resource=settings', headers: sam.auth })).json().data, [])
    const owner = (await app.inject({ url: '/merchant/activity', headers: rosa.auth })).json().data as Array<{ resource: { type: string }, actor: { name: string } }>
    t.ok(owner.some((entry) => entry.resource.type === 'settings') && owner[0].actor.name === 'Sam Staff', 'the owner sees everything, the staff member by name')
  })

  t.test('needs a session; apps cannot read or write it', async (t) => {
    t.equal((await app.inject({ url: '/merchant/activity' })).statusCode, 401)
    const installed = await installApp(app, ['read_orders'])
    t.equal((await app.inject({ url: '/merchant/activity', headers: installed.auth })).statusCode, 401, 'an app token is no session')
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      t.equal((await app.inject({ method, url: '/merchant/activity', headers: rosa.auth, payload: {} })).statusCode, 405, `${method} is not a route`)
    }
    t.equal((await app.inject({ url: '/app-api/activity', headers: installed.auth })).statusCode, 404, 'no App API route')
  })
})

t.test('resourcesFor: a staff member sees the resources of their permissions', async (t) => {
  t.equal(resourcesFor(undefined), undefined, 'the owner sees everything')
  t.same(resourcesFor([]), [])
  t.same(resourcesFor(['orders', 'billing']), ['order', 'charge'])
  t.same(resourcesFor(['products', 'reviews', 'pages', 'settings', 'apps']), ['product', 'review', 'page', 'settings', 'app'])
})
