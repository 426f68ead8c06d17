import t from 'tap'
import { build, createApp, oauthInstall, publishApp, registerUser, until, REVIEWER_ENV } from '../../helper.ts'
import { solidPng } from '../../e2e/browser.ts'
import { createProduct, newMerchant } from './fixtures.ts'
import { startAppServer, shop, cart, customer } from '../checkout-hooks/fixtures.ts'

/** A multipart body with one file, as a browser's FormData sends it. */
function upload (bytes: Buffer, filename = 'picture.png', type = 'image/png') {
  const boundary = '----merchant-admin-test'
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`)
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

t.test('the merchant admin screens’ routes', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await newMerchant(app)
  const other = await newMerchant(app)
  const get = (url: string, session = merchant) => app.inject({ url, headers: session.auth })

  t.test('products: search by name, status filter, low stock; each business its own', async (t) => {
    await createProduct(app, merchant, { name: 'Margherita Pizza', stock: 40, lowStockThreshold: 5 })
    await createProduct(app, merchant, { name: 'Pepperoni pizza', stock: 3, lowStockThreshold: 5 })
    await createProduct(app, merchant, { name: 'Tiramisu', status: 'DRAFT', stock: 5, lowStockThreshold: 5 })
    await createProduct(app, other, { name: 'Other Pizza', stock: 0 })
    const names = async (query: string, session = merchant) => (await get(`/merchant/products?${query}`, session)).json().data.map((p: { name: string }) => p.name).sort()
    t.same(await names('q=PIZZA'), ['Margherita Pizza', 'Pepperoni pizza'], 'part of the name, any case')
    t.same(await names('q=100%25'), [], 'a % matches itself')
    t.same(await names('status=DRAFT'), ['Tiramisu'])
    t.same(await names('lowStock=true'), ['Pepperoni pizza', 'Tiramisu'], 'stock at or below the threshold')
    t.same(await names('q=pizza&lowStock=true'), ['Pepperoni pizza'], 'filters combine')
    t.equal((await get('/merchant/products?q=pizza')).json().total, 2)
    t.same(await names('q=pizza', other), ['Other Pizza'], 'another business sees its own')
    t.equal((await get('/merchant/products?status=GONE')).statusCode, 400)
    t.equal((await get(`/merchant/products?q=${'x'.repeat(101)}`)).statusCode, 400)
  })

  t.test('a product picture: uploaded, served on both origins, replaced, refused when not an image', async (t) => {
    const product = await createProduct(app, merchant, { name: 'Calzone' })
    const png = solidPng(8, 8, [200, 40, 40])
    const sent = await app.inject({ method: 'POST', url: `/merchant/products/${product.id}/image`, headers: { ...merchant.auth, ...upload(png).headers }, payload: upload(png).payload })
    t.equal(sent.statusCode, 200, sent.body)
    const url = sent.json().imageUrl as string
    t.match(url, /^\/media\/products\/img_/)
    t.equal((await get(`/merchant/products/${product.id}`)).json().imageUrl, url, 'the product points at it')
    const served = await app.inject({ url })
    t.equal(served.statusCode, 200)
    t.equal(served.headers['content-type'], 'image/png')
    t.same(served.rawPayload, png)
    t.equal((await app.storefront.inject({ url })).statusCode, 200, 'the storefront origin serves it too')

    const again = await app.inject({ method: 'POST', url: `/merchant/products/${product.id}/image`, headers: { ...merchant.auth, ...upload(png).headers }, payload: upload(png).payload })
    t.not(again.json().imageUrl, url, 'a new picture gets a new URL')
    t.equal((await app.inject({ url })).statusCode, 404, 'the replaced one is gone')

    const text = upload(Buffer.from('<svg onload="alert(1)"/>'), 'x.png')
    const refused = await app.inject({ method: 'POST', url: `/merchant/products/${product.id}/image`, headers: { ...merchant.auth, ...text.headers }, payload: text.payload })
    t.match(refused.json(), { statusCode: 400, message: 'The file is not a PNG, JPEG or WebP image' })
    const theirs = await app.inject({ method: 'POST', url: `/merchant/products/${product.id}/image`, headers: { ...other.auth, ...upload(png).headers }, payload: upload(png).payload })
    t.equal(theirs.statusCode, 404, "another business's product is 404")
    const json = await app.inject({ method: 'POST', url: `/merchant/products/${product.id}/image`, headers: merchant.auth, payload: { file: 'x' } })
    t.equal(json.statusCode, 400, 'JSON is not an upload')
    const big = upload(Buffer.concat([png, Buffer.alloc(1024 * 1024)]))
    t.equal((await app.inject({ method: 'POST', url: `/merchant/products/${product.id}/image`, headers: { ...merchant.auth, ...big.headers }, payload: big.payload })).statusCode, 413)
    t.equal((await app.inject({ method: 'DELETE', url: `/merchant/products/${product.id}`, headers: merchant.auth })).statusCode, 204)
    t.equal((await app.inject({ url: again.json().imageUrl })).statusCode, 404, 'the picture goes with its product')
  })

  t.test('orders: the checkout’s apps on the order, a search by number, and a status change that reaches the app', async (t) => {
    const developer = await registerUser(app, 'DEVELOPER')
    const { merchant: owner, slug, pizza, soda } = await shop(app)
    const receiver = await startAppServer(t, {
      '/base': () => ({ json: {} }),
      '/base/methods': () => ({ json: { methods: [{ id: 'wallet', name: 'Demo Wallet' }] } }),
      '/base/discounts': () => ({ json: { discount: 270, reason: 'Loyalty reward: 10% off' } }),
      '/base/shipping': () => ({ json: { fee: 0 } }),
      '/base/validate': () => ({ json: { valid: true } }),
      '/base/pay': ({ body }) => ({ json: { invoiceId: `inv-${body.data.orderId as string}`, paymentUrl: 'https://pay.example.com/i/1' } })
    })
    const { app: created, clientSecret } = await createApp(app, developer, {
      name: 'Loyalty Wallet',
      webhookUrl: `${receiver.url}/base`,
      scopes: ['read_orders', 'write_payments', 'write_discounts', 'write_shipping'],
      webhookEvents: ['order.status_changed']
    })
    const hooks = [
      { hookPoint: 'checkout.payment_methods', url: '/methods' }, { hookPoint: 'checkout.create_payment', url: '/pay' },
      { hookPoint: 'order.calculate_discounts', url: '/discounts' }, { hookPoint: 'checkout.shipping_rates', url: '/shipping' },
      { hookPoint: 'order.validate', url: '/validate' }
    ]
    t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { hooks } } })).statusCode, 200)
    await publishApp(app, developer, created.id)
    const installed = await oauthInstall(app, owner, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
    const method = `${installed.installationId}:wallet`
    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: method } })
    t.equal(placed.statusCode, 201, placed.body)
    const { order } = placed.json()
    // a later quote's calls are not this order's
    await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })

    const checkout = await get(`/merchant/orders/${order.id as string}/checkout`, owner)
    t.equal(checkout.statusCode, 200, checkout.body)
    const body = checkout.json()
    t.same(body.paymentMethod, { id: method, provider: 'app', methodId: 'wallet', appId: created.id, appName: 'Loyalty Wallet' }, 'the method and the app that supplied it')
    t.same(body.discounts, [{ appId: created.id, appName: 'Loyalty Wallet', amount: 270, reason: 'Loyalty reward: 10% off' }], 'the discount with its reason')
    t.same(body.hookCalls.map((c: { hookPoint: string }) => c.hookPoint).sort(),
      ['checkout.create_payment', 'checkout.payment_methods', 'checkout.shipping_rates', 'order.calculate_discounts', 'order.validate'], 'each hook of this checkout, once')
    t.match(body.hookCalls.find((c: { hookPoint: string }) => c.hookPoint === 'checkout.shipping_rates'), { success: true, statusCode: 200, answer: { fee: 0 }, appName: 'Loyalty Wallet', policyApplied: null })
    t.equal((await get(`/merchant/orders/${order.id as string}/checkout`, other)).statusCode, 404, "another business's order is 404")

    const builtIn = (await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })).json().order
    t.match((await get(`/merchant/orders/${builtIn.id as string}/checkout`, owner)).json().paymentMethod, { id: 'CASH', provider: 'platform', methodId: 'CASH', appId: null, appName: null })

    const found = (await get(`/merchant/orders?number=%23${order.orderNumber as string}`, owner)).json()
    t.match(found, { total: 1, data: [{ id: order.id }] }, 'by number, a leading # ignored')
    t.equal((await get(`/merchant/orders?number=${order.orderNumber as string}`, other)).json().total, 0, 'not in another business')
    t.equal((await get(`/merchant/orders?number=${order.orderNumber as string}&status=CANCELLED`, owner)).json().total, 0, 'with the status filter')

    const moved = await app.inject({ method: 'PATCH', url: `/merchant/orders/${order.id as string}/status`, headers: owner.auth, payload: { status: 'CONFIRMED' } })
    t.equal(moved.statusCode, 200)
    const delivered = await until(async () => receiver.calls.filter((c) => c.path === '/base' && c.body?.event === 'order.status_changed'), (calls) => calls.length > 0, 15_000)
    t.match(delivered[0].body.data, { orderId: order.id, status: 'CONFIRMED', previousStatus: 'PENDING' }, 'the app’s receiver got order.status_changed')
  })
})
