import t from 'tap'
import { createReview, reviewStats } from '../../../plugins/commerce/reviews-service.ts'
import type { Review } from '../../../plugins/commerce/schemas.ts'
import { build, loginReviewer, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { createProduct, eventsOf, newMerchant } from './fixtures.ts'

t.test('merchant reviews', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const pizza = await createProduct(app, merchant, { name: 'Pizza' })
  const salad = await createProduct(app, merchant, { name: 'Salad' })
  const ratings: Array<[string, number]> = [[pizza.id, 5], [pizza.id, 4], [pizza.id, 5], [salad.id, 2], [salad.id, 3], [pizza.id, 1]]
  const created: Review[] = []
  for (const [productId, rating] of ratings) created.push(await createReview(app.db, merchant.businessId, { productId, rating, text: 'ok', authorName: 'Ana' }))
  const theirs = await createReview(app.db, other.businessId, { productId: (await createProduct(app, other)).id, rating: 1, authorName: 'Zed' })
  const get = (url: string, session = merchant) => app.inject({ method: 'GET', url, headers: session.auth })

  t.test('createReview emits review.created and refuses a product of another business', async (t) => {
    const events = await eventsOf(app, merchant.businessId, 'review.created')
    t.equal(events.length, 6)
    t.same(events[0].data, created[0])
    await t.rejects(createReview(app.db, merchant.businessId, { productId: theirs.productId, rating: 5, authorName: 'X' }), { message: /./, statusCode: 422 })
  })

  t.test('GET /merchant/reviews lists newest first, by product, 10 per page by default (max 50)', async (t) => {
    const all = (await get('/merchant/reviews')).json()
    t.match(all, { total: 6, page: 1, limit: 10 })
    t.same(all.data.map((r: { id: string }) => r.id), created.map((r) => r.id).reverse())
    t.same(Object.keys(all.data[0]).sort(), ['authorName', 'createdAt', 'id', 'productId', 'rating', 'text', 'updatedAt'])
    t.equal((await get(`/merchant/reviews?productId=${salad.id}`)).json().total, 2)
    t.equal((await get(`/merchant/reviews?productId=${theirs.productId}`)).json().total, 0, "another business's product has nothing here")
    t.equal((await get('/merchant/reviews?limit=1000')).json().limit, 50)
    t.same((await get('/merchant/reviews?page=5&limit=2')).json(), { data: [], total: 6, page: 5, limit: 2 })
    t.equal((await get('/merchant/reviews?limit=0')).statusCode, 400)
  })

  t.test('GET /merchant/reviews/stats is computed in SQL', async (t) => {
    t.same((await get('/merchant/reviews/stats')).json(), { averageRating: 3.33, totalReviews: 6, distribution: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 2 } })
    t.same((await get(`/merchant/reviews/stats?productId=${pizza.id}`)).json(), { averageRating: 3.75, totalReviews: 4, distribution: { 1: 1, 2: 0, 3: 0, 4: 1, 5: 2 } })
    t.same(await reviewStats(app.db, merchant.businessId, 'prod_none'), { averageRating: 0, totalReviews: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } })
  })

  t.test('DELETE /merchant/reviews/:id removes it and emits review.deleted once', async (t) => {
    const target = created[5]
    t.equal((await app.inject({ method: 'DELETE', url: `/merchant/reviews/${target.id}`, headers: merchant.auth })).statusCode, 204)
    t.equal((await app.inject({ method: 'DELETE', url: `/merchant/reviews/${target.id}`, headers: merchant.auth })).statusCode, 404)
    const deleted = await eventsOf(app, merchant.businessId, 'review.deleted')
    t.equal(deleted.length, 1)
    t.same(deleted[0].data, target)
    const foreign = await app.inject({ method: 'DELETE', url: `/merchant/reviews/${theirs.id}`, headers: merchant.auth })
    t.equal(foreign.statusCode, 404, "another merchant's review is 404")
    t.match(foreign.json(), { message: 'Review not found' })
    t.equal((await get('/merchant/reviews', other)).json().total, 1, 'and it is still there')
  })

  t.test('/merchant/reviews needs a merchant token', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/merchant/reviews' })).statusCode, 401)
    t.equal((await app.inject({ method: 'DELETE', url: `/merchant/reviews/${created[0].id}` })).statusCode, 401)
    t.equal((await get('/merchant/reviews/stats', await loginReviewer(app))).statusCode, 403, 'a reviewer has no business')
    const developer = await registerUser(app, 'DEVELOPER')
    t.equal((await app.inject({ method: 'DELETE', url: `/merchant/reviews/${created[0].id}`, headers: developer.auth })).statusCode, 404, 'a developer reaches their sandbox only')
  })
})
