import t from 'tap'
import { build, registerUser } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'
import { businessSlug, createPage } from './fixtures.ts'

t.test('shop pages: product, cart, checkout and confirmation on the storefront', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Rosa <Bakery>' })
  const other = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const otherSlug = await businessSlug(app, other)
  const loaf = await createProduct(app, merchant, { name: 'Loaf <b>1</b>', price: 650, stock: 5, description: 'Crusty "rye"' })
  const hidden = await createProduct(app, merchant, { name: 'Hidden', price: 100, isAvailable: false })
  const draft = await createProduct(app, merchant, { name: 'Draft', price: 100, status: 'DRAFT' })
  const get = (url: string) => app.storefront.inject({ url })

  t.test('every page: 200, HTML, the storefront CSP unchanged, store-relative links', async (t) => {
    for (const path of [`products/${loaf.slug}`, 'cart', 'checkout']) {
      const response = await get(`/store/${slug}/${path}`)
      t.equal(response.statusCode, 200, path)
      t.match(response.headers['content-type'], /^text\/html/)
      const csp = String(response.headers['content-security-policy'])
      t.match(csp, /script-src 'self';/, `${path}: scripts from the platform only`)
      t.match(csp, /frame-src 'none'/, `${path}: no frames`)
      t.match(csp, /style-src 'self';/)
      t.match(csp, /form-action 'self'/)
      t.notMatch(response.body, /<script>|<script(?![^>]*(src=|type="application\/json"))|style=/, `${path}: no inline script or style`)
      const hrefs = [...response.body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]).filter((h) => !h.startsWith('/store/_assets/') && h !== 'data:,' && h !== '#main')
      t.ok(hrefs.length > 0 && hrefs.every((h) => !h.startsWith('/') && !/^[a-z]+:/.test(h)), `${path}: links relative to the store (${hrefs.join(' ')})`)
      t.match(response.body, 'Rosa &lt;Bakery&gt;', 'names are escaped')
    }
    const product = (await get(`/store/${slug}/products/${loaf.slug}`)).body
    t.match(product, '<h1>Loaf &lt;b&gt;1&lt;/b&gt;</h1>')
    t.match(product, 'max="20"', 'the quantity input knows MAX_LINE_QUANTITY')
    t.match(product, 'href="../cart"')
    const data = JSON.parse(/<script type="application\/json" id="shop-data">(.*?)<\/script>/.exec(product)?.[1] ?? '{}')
    t.match(data, { page: 'product', root: '../', maxLineQuantity: 20, product: { id: loaf.id, price: 650 } })
    t.match((await get(`/store/${slug}`)).body, `href="/store/${slug}/products/${loaf.slug}"`, 'the home page links each product')
  })

  t.test('one header on every page: the store\'s name and the Cart link with its count, home and content pages too', async (t) => {
    await createPage(app, merchant, 'about', 'About us')
    const header = (html: string) => /<header class="site-header">[\s\S]*?<\/header>/.exec(html)?.[0] ?? ''
    const cart = (href: string, current = false) => `<a href="${href}" class="cart-link"${current ? ' aria-current="page"' : ''}>Cart <span class="cart-count" data-cart-count>0</span></a></nav>`
    for (const [path, href] of [['', `/store/${slug}/cart`], ['/about', `/store/${slug}/cart`], [`/products/${loaf.slug}`, '../cart'], ['/checkout', 'cart']]) {
      const html = (await get(`/store/${slug}${path}`)).body
      t.match(header(html), cart(href), `${path === '' ? 'home' : path}: the Cart link, with its count`)
      t.match(header(html), '<nav aria-label="Shop">', 'in the one shop navigation')
      t.match(html, '<script src="/store/_assets/shop.js" defer></script>', 'shop.js fills in the count')
    }
    t.match(header((await get(`/store/${slug}/cart`)).body), cart('cart', true), 'the cart page marks its own link')
    t.match(header((await get(`/store/${slug}/about`)).body), `<a href="/store/${slug}/about" aria-current="page">About us</a>`, 'content pages keep the store\'s pages beside it')
    const home = (await get(`/store/${slug}`)).body
    const data = JSON.parse(/<script type="application\/json" id="shop-data">(.*?)<\/script>/.exec(home)?.[1] ?? '{}')
    t.match(data, { page: 'store', store: { slug } }, 'the home page tells shop.js which store\'s cart to count')
  })

  t.test('what is not for sale, or not there, is the shop\'s 404 page', async (t) => {
    for (const url of [
      `/store/${slug}/products/${hidden.slug}`, `/store/${slug}/products/${draft.slug}`, `/store/${slug}/products/nope`, `/store/${otherSlug}/products/${loaf.slug}`,
      `/store/${slug}/products/BAD%20SLUG`, '/store/no-such-store/cart', '/store/no-such-store/checkout', `/store/${slug}/orders/ord_unknown`, `/store/${slug}/orders/%3Cx%3E`
    ]) {
      const response = await get(url)
      t.equal(response.statusCode, 404, url)
      t.match(response.headers['content-type'], /^text\/html/)
      t.ok(response.headers['content-security-policy'], 'with the CSP')
    }
  })

  t.test('the confirmation shows a guest order of this store only, without the customer\'s details', async (t) => {
    const placed = await app.storefront.inject({
      method: 'POST', url: `/store/${slug}/api/orders`,
      payload: { items: [{ productId: loaf.id, quantity: 2 }], customer: { name: 'Secret Name', email: 'secret@example.com' }, deliveryMethod: 'DELIVERY', address: '1 Hidden Lane', paymentMethod: 'CASH' }
    })
    t.equal(placed.statusCode, 201, placed.body)
    const { order, paymentExpiresAt } = placed.json()
    t.type(paymentExpiresAt, 'string', 'a CASH order is held until its deadline')
    const page = await get(`/store/${slug}/orders/${order.id}`)
    t.equal(page.statusCode, 200)
    t.match(page.body, `<dd data-order-number>${order.orderNumber}</dd>`)
    t.match(page.body, '<dd data-order-status="PENDING">Received, waiting for the store</dd>', 'words for the customer, the code in the attribute')
    t.match(page.body, '<dd data-payment-status="PENDING">Not paid yet</dd>')
    t.match(page.body, '2 × Loaf &lt;b&gt;1&lt;/b&gt;')
    t.notMatch(page.body, /Secret Name|secret@example|Hidden Lane/, 'no customer details')
    t.equal((await get(`/store/${otherSlug}/orders/${order.id}`)).statusCode, 404, 'another store\'s address finds nothing')
  })
})
