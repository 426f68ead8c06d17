import t from 'tap'
import { build, registerUser, portsOf } from '../../helper.ts'
import { sampleImages } from '../../../plugins/commerce/routes/sample-images.ts'

t.test('GET /media/samples/:file', async (t) => {
  const app = await build(t)
  // the demo store's catalogue (developers' sandboxes get the same)
  const merchant = await registerUser(app, 'MERCHANT')
  await app.db.transaction(async (tx) => { await portsOf(app).commerce.in(tx).seedSample(merchant.businessId, app.clock.now()) })
  const products = (await app.inject({ url: '/merchant/products?limit=100', headers: merchant.auth })).json().data as Array<{ name: string, imageUrl: string }>
  t.equal(products.length, 6)

  t.test('every sample product’s picture answers 200 on the storefront and the API origins', async (t) => {
    for (const product of products) {
      t.match(product.imageUrl, /^\/media\/samples\/[a-z-]+\.svg$/, product.name)
      for (const inject of [app.storefront.inject, app.inject.bind(app)]) {
        const response = await inject({ url: product.imageUrl })
        t.equal(response.statusCode, 200, `${product.imageUrl}`)
        t.equal(response.headers['content-type'], 'image/svg+xml')
        t.match(response.headers['content-security-policy'], /default-src 'none'/, 'an SVG runs no script')
        t.match(response.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 400 300" role="img" aria-label="[^"]+">/)
      }
    }
    t.equal(sampleImages().size, products.length, 'one picture per sample product, none unused')
  })

  t.test('the demo store’s page shows them', async (t) => {
    const slug = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json().slug
    const page = (await app.storefront.inject({ url: `/store/${slug}` })).body
    const sources = [...page.matchAll(/<img class="product-image" src="([^"]+)"/g)].map((match) => match[1])
    t.equal(sources.length, 5, 'the available products (garlic bread is out of stock)')
    for (const src of sources) t.equal((await app.storefront.inject({ url: src })).statusCode, 200, src)
  })

  t.test('an unknown picture is a JSON 404', async (t) => {
    const missing = await app.storefront.inject({ url: '/media/samples/nope.svg' })
    t.equal(missing.statusCode, 404)
    t.match(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Image not found' })
    t.equal((await app.inject({ url: '/media/samples/..%2Fsample-data.ts' })).statusCode, 404, 'no path out of the folder')
  })
})
