import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'
import { analyticsScript, businessSlug, chatWidget, createPage, faqBlock, heroBlock, installApp, putBlocks, putEmbeds } from './fixtures.ts'

const cspOf = (header: unknown) => Object.fromEntries(String(header).split('; ').map((d) => { const [name, ...values] = d.split(' '); return [name, values] }))

t.test('GET /store/:businessSlug[/:pageSlug]', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, ADMIN_URL: 'https://admin.example.com' } })
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Bakery <b>"Bread"</b>' })
  const slug = await businessSlug(app, merchant)
  const blocksApp = await installApp(app, merchant, { blocks: [heroBlock('https://blocks.example.com/hero?theme=dark'), faqBlock()] })
  const embedsApp = await installApp(app, merchant, {
    embeds: [chatWidget(), analyticsScript(), { ...analyticsScript('https://pixel.example.io/p.js', 'body_end'), embedType: 'pixel' }, { ...chatWidget('https://left.example.net/w'), embedType: 'left', position: 'bottom_left' }]
  })
  const inst = blocksApp.installed.installationId
  await createPage(app, merchant, 'about', 'About </title><script>alert(1)</script>')
  await createPage(app, merchant, 'home', 'Welcome & "hello"')
  await createPage(app, merchant, 'draft', 'Draft', false)
  t.equal((await putBlocks(app, merchant, 'home', [
    { id: 'b-faq', installationId: inst, blockType: 'faq' },
    { id: 'b-hero', installationId: inst, blockType: 'hero', settings: { headline: '</script><script>alert("x")</script>\u2028' } }
  ])).statusCode, 200)
  t.equal((await putEmbeds(app, merchant, embedsApp.installed.installationId, {
    chat: { enabled: true, settings: { greeting: 'Hi & <bye>' } }, analytics: { enabled: true, settings: { siteId: 'a"b' } }, pixel: { enabled: true }, left: { enabled: false }
  })).statusCode, 200)
  await createProduct(app, merchant, { name: '<img src=x onerror=alert(1)>', price: 1250, description: 'Crusty "sourdough"' })
  await createProduct(app, merchant, { name: 'Hidden', price: 100, isAvailable: false })
  await createProduct(app, merchant, { name: 'Draft product', price: 100, status: 'DRAFT' })

  t.test('renders the home page: blocks in order as sandboxed iframes, products, nav, escaped', async (t) => {
    const response = await app.storefront.inject({ url: `/store/${slug}` })
    t.equal(response.statusCode, 200)
    t.match(response.headers['content-type'], /^text\/html; charset=utf-8/)
    t.equal(response.headers['x-content-type-options'], 'nosniff')
    t.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin')
    const html = response.body
    const frames = [...html.matchAll(/<iframe class="block" src="([^"]+)"[^>]*>/g)]
    t.equal(frames.length, 2)
    const faq = new URL(frames[0][1].replaceAll('&amp;', '&'))
    const hero = new URL(frames[1][1].replaceAll('&amp;', '&'))
    t.equal(`${faq.origin}${faq.pathname}`, 'https://faq.example.org/block', 'faq first, as placed')
    t.same(Object.fromEntries(faq.searchParams), { blockId: 'b-faq', businessId: merchant.businessId })
    t.same(Object.fromEntries(hero.searchParams), { theme: 'dark', blockId: 'b-hero', businessId: merchant.businessId }, 'the renderUrl’s own query is kept')
    t.match(frames[1][0], /sandbox="allow-scripts allow-same-origin allow-forms allow-popups"/)
    t.match(frames[1][0], /data-block-id="b-hero" data-block-origin="https:\/\/blocks.example.com"/)
    t.match(frames[1][0], /title="Hero banner"/)

    const data = html.match(/<script type="application\/json" id="storefront-data">(.*?)<\/script>/s)?.[1] as string
    t.notOk(data.includes('</script') || data.includes('\u2028'), 'inline data cannot close its script element')
    t.same(JSON.parse(data), {
      businessId: merchant.businessId, previewOrigin: null,
      blocks: { 'b-faq': {}, 'b-hero': { headline: '</script><script>alert("x")</script>\u2028' } }
    }, 'and still parses to the settings')
    t.equal(html.match(/<script/g)?.length, 6, 'only the two data blocks, the host and shop scripts and the two embeds')
    t.match(html, '<script src="/store/_assets/host.js"></script>')
    t.match(html, '<script src="/store/_assets/shop.js" defer></script>', 'shop.js shows the cart count here too')

    t.match(html, '<a class="brand" href="/store/' + slug + '">Bakery &lt;b&gt;&quot;Bread&quot;&lt;/b&gt;</a>')
    t.match(html, '<h1>Welcome &amp; &quot;hello&quot;</h1>')
    // home came with the business, before about
    t.match(html, `<a href="/store/${slug}/home" aria-current="page">Welcome &amp; &quot;hello&quot;</a><a href="/store/${slug}/about">About &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>`, 'nav of published pages in creation order')
    t.match(html, `<a href="/store/${slug}/cart" class="cart-link">Cart <span class="cart-count" data-cart-count>0</span></a></nav>`, 'the Cart link, with its count, as on the shop pages')
    t.notMatch(html, /draft/i, 'no unpublished page and no hidden products')
    t.notMatch(html, 'Hidden')
    t.match(html, '">&lt;img src=x onerror=alert(1)&gt;</a></h3>', 'the product name, escaped, links to its page')
    t.match(html, 'Crusty &quot;sourdough&quot;')
    t.match(html, '$12.50')
  })

  t.test('places the enabled embeds: head and body_end scripts, floating widgets', async (t) => {
    const html = (await app.storefront.inject({ url: `/store/${slug}/about` })).body
    const [head, body] = html.split('</head>')
    t.match(head, `<script src="https://cdn.analytics.example/tag.js" data-embed-type="analytics" data-business-id="${merchant.businessId}" data-settings="{&quot;siteId&quot;:&quot;a\\&quot;b&quot;}"></script>`)
    t.notMatch(head, 'pixel.example.io')
    const [, afterFooter] = body.split('</footer>')
    t.match(afterFooter, /<script src="https:\/\/pixel.example.io\/p.js" data-embed-type="pixel"[^>]*><\/script>\n<\/body>/, 'body_end script last in body')
    const widget = afterFooter.match(/<iframe class="widget widget-bottom-right" src="([^"]+)"[^>]*>/)
    t.ok(widget, 'the chat widget is a fixed iframe at bottom right')
    const src = new URL((widget as RegExpMatchArray)[1].replaceAll('&amp;', '&'))
    t.same(Object.fromEntries(src.searchParams), { embedType: 'chat', businessId: merchant.businessId, settings: '{"greeting":"Hi & <bye>"}' }, 'settings in the query, URL-encoded')
    t.match((widget as RegExpMatchArray)[0], 'sandbox="allow-scripts allow-same-origin allow-forms allow-popups"')
    t.notMatch(html, 'left.example.net', 'a disabled embed is not injected')
    t.notMatch(html, 'class="block"', 'about has no blocks')
  })

  t.test('the CSP allows exactly the rendered frames and scripts', async (t) => {
    const csp = cspOf((await app.storefront.inject({ url: `/store/${slug}` })).headers['content-security-policy'])
    t.same(csp['default-src'], ["'self'"])
    t.same(csp['script-src'], ["'self'", 'https://cdn.analytics.example', 'https://pixel.example.io'])
    t.same(csp['frame-src'], ['https://blocks.example.com', 'https://chat.example.net', 'https://faq.example.org'])
    t.same(csp['style-src'], ["'self'"])
    t.same(csp['object-src'], ["'none'"])
    t.same(csp['frame-ancestors'], ["'self'", 'https://admin.example.com'])
    const about = cspOf((await app.storefront.inject({ url: `/store/${slug}/about` })).headers['content-security-policy'])
    t.same(about['frame-src'], ['https://chat.example.net'], 'a page without blocks frames the widget only')
  })

  t.test('?preview=1 names the admin origin allowed to send updates', async (t) => {
    const html = (await app.storefront.inject({ url: `/store/${slug}?preview=1` })).body
    t.match(html, '"previewOrigin":"https://admin.example.com"')
    const odd = await app.storefront.inject({ url: `/store/${slug}?preview=1&preview=2&utm_source=x` })
    t.equal(odd.statusCode, 200, 'odd queries do not break the page')
    t.match(odd.body, '"previewOrigin":null')
  })

  t.test('unknown business, unknown or unpublished page: a 404 HTML page', async (t) => {
    for (const url of [`/store/${slug}/draft`, `/store/${slug}/nope`, '/store/no-such-shop', '/store/no-such-shop/home', `/store/${slug}/Bad%20Slug`]) {
      const response = await app.storefront.inject({ url })
      t.equal(response.statusCode, 404, url)
      t.match(response.headers['content-type'], /^text\/html/)
      t.match(response.body, '<h1>Page not found</h1>')
      t.ok(response.headers['content-security-policy'])
    }
  })

  t.test('a removed extension disappears; after uninstall nothing of the app remains', async (t) => {
    await blocksApp.setManifest({ blocks: [faqBlock()] })
    let html = (await app.storefront.inject({ url: `/store/${slug}` })).body
    t.notMatch(html, 'blocks.example.com', 'the deactivated hero block is not rendered')
    t.match(html, 'faq.example.org')
    await embedsApp.setManifest({ embeds: [chatWidget()] })
    html = (await app.storefront.inject({ url: `/store/${slug}` })).body
    t.notMatch(html, 'cdn.analytics.example', 'a deactivated embed is not injected')
    t.match(html, 'chat.example.net')

    await app.inject({ method: 'DELETE', url: `/merchant/installations/${inst}`, headers: merchant.auth })
    await app.inject({ method: 'DELETE', url: `/merchant/installations/${embedsApp.installed.installationId}`, headers: merchant.auth })
    const response = await app.storefront.inject({ url: `/store/${slug}` })
    t.notMatch(response.body, /example\.(org|com|net|io)|<iframe/, 'no block, no widget, no script of uninstalled apps')
    const csp = cspOf(response.headers['content-security-policy'])
    t.same(csp['frame-src'], ["'none'"])
    t.same(csp['script-src'], ["'self'"])
  })
})

t.test('a store without pages shows its products; assets are served', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Empty Shop' })
  const slug = await businessSlug(app, merchant)
  // every business starts with a home page: without it, the store still shows its products
  t.equal((await app.inject({ method: 'DELETE', url: '/merchant/pages/home', headers: merchant.auth })).statusCode, 204)
  const response = await app.storefront.inject({ url: `/store/${slug}` })
  t.equal(response.statusCode, 200)
  t.match(response.body, '<h1>Empty Shop</h1>')
  t.match(response.body, 'No products yet.')

  const host = await app.storefront.inject({ url: '/store/_assets/host.js' })
  t.equal(host.statusCode, 200)
  t.match(host.headers['content-type'], /^text\/javascript/)
  t.match(host.body, 'SERVICE_BLOCK_READY', 'the SDK protocol is bundled in')
  t.notMatch(host.body, /\bimport\b|require\(/, 'one self-contained script')
  const css = await app.storefront.inject({ url: '/store/_assets/storefront.css' })
  t.match(css.headers['content-type'], /^text\/css/)
  t.equal((await app.storefront.inject({ url: '/store/_assets/nope.js' })).statusCode, 404)
})
