import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../helper.ts'
import { installApp } from '../plugins/storefront/fixtures.ts'

const cspOf = (header: unknown) => Object.fromEntries(String(header).split('; ').map((part) => { const [name, ...values] = part.split(' '); return [name, values] }))

t.test('every SPA answer carries the admin headers', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const home = await app.inject({ url: '/' })
  const asset = home.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1] as string

  t.test('HTML: CSP, X-Frame-Options, nosniff, Referrer-Policy', async (t) => {
    for (const url of ['/', '/login', '/admin', '/portal/apps/abc']) {
      const response = await app.inject({ url })
      t.equal(response.headers['x-frame-options'], 'DENY', url)
      t.equal(response.headers['x-content-type-options'], 'nosniff')
      t.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin')
      const csp = cspOf(response.headers['content-security-policy'])
      t.same(csp['default-src'], ["'self'"])
      t.same(csp['script-src'], ["'self'"])
      t.same(csp['frame-ancestors'], ["'none'"])
      t.same(csp['frame-src'], ['http://*.localhost:3001'], 'no app installed: only the storefront (editor preview)')
    }
  })

  t.test('the consent screen can never be framed', async (t) => {
    const response = await app.inject({ url: '/oauth/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&response_type=code' })
    t.equal(response.statusCode, 200)
    t.match(response.body, '<div id="app">')
    t.equal(response.headers['x-frame-options'], 'DENY')
    t.same(cspOf(response.headers['content-security-policy'])['frame-ancestors'], ["'none'"])
  })

  t.test('static files: X-Frame-Options, nosniff, Referrer-Policy', async (t) => {
    const script = await app.inject({ url: asset })
    t.equal(script.statusCode, 200)
    t.equal(script.headers['x-frame-options'], 'DENY')
    t.equal(script.headers['x-content-type-options'], 'nosniff')
    t.equal(script.headers['referrer-policy'], 'strict-origin-when-cross-origin')
  })

  t.test('frame-src: the origins of installed apps’ admin pages, nothing broader', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT')
    const shop = await installApp(app, merchant, { adminPages: [{ pageId: 'reports', title: 'Reports', renderUrl: 'https://reports.example.com/admin?x=1' }] })
    // published with an admin page but installed nowhere: not framed
    const developer = await registerUser(app, 'DEVELOPER')
    const created = (await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: { name: 'Other', slug: `other-${Date.now()}`, description: 'Another app here.', category: 'analytics', scopes: ['read_business'], redirectUrl: 'https://other.example/cb' } })).json()
    await app.inject({ method: 'PUT', url: `/developer/apps/${created.app.id}/manifest`, headers: developer.auth, payload: { manifest: { adminPages: [{ pageId: 'p', title: 'P', renderUrl: 'https://not-installed.example/p' }] } } })
    let csp = cspOf((await app.inject({ url: '/admin' })).headers['content-security-policy'])
    t.same(csp['frame-src'], ['http://*.localhost:3001', 'https://reports.example.com'])
    await app.inject({ method: 'DELETE', url: `/merchant/installations/${shop.installed.installationId}`, headers: merchant.auth })
    csp = cspOf((await app.inject({ url: '/admin' })).headers['content-security-policy'])
    t.same(csp['frame-src'], ['http://*.localhost:3001'], 'uninstalled: gone at the next page load')
  })
})
