import t from 'tap'
import { createOrigins } from '../../server/origins.ts'
import { ConfigError, loadConfig } from '../../server/config.ts'
import { build, registerUser, testConfig } from '../helper.ts'

const config = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env }, { inMemory: true })

t.test('the three origins and their default ports', async (t) => {
  const defaults = config({})
  t.same([defaults.baseUrl, defaults.adminUrl, defaults.storefrontUrl, defaults.storefrontPort], ['http://localhost:3000', 'http://localhost:3000', 'http://{store}.localhost:3001', 3001],
    'each store on a host of its own under localhost by default (DESIGN §21)')
  const moved = config({ PORT: '8080' })
  t.same([moved.storefrontPort, moved.storefrontUrl], [8081, 'http://{store}.localhost:8081'], 'STOREFRONT_PORT defaults to PORT + 1')
  const ephemeral = config({ PORT: '0' })
  t.equal(ephemeral.storefrontPort, 0, 'PORT=0: the storefront port is ephemeral too')
  const origins = createOrigins(ephemeral)
  origins.listening({ api: 41000, storefront: 41001 }, '127.0.0.1')
  t.same([origins.baseUrl, origins.adminUrl, origins.storefrontUrl, origins.storefrontBareUrl], ['http://127.0.0.1:41000', 'http://127.0.0.1:41000', 'http://{store}.localhost:41001', 'http://localhost:41001'],
    'the real ports once listening; store hosts stay under localhost')
  t.equal(origins.storeUrl('rosa'), 'http://rosa.localhost:41001/store/rosa')
  t.same(['rosa.localhost:41001', 'ROSA.localhost:41001', 'localhost:41001', '127.0.0.1:41001', 'rosa.localhost:41002', 'a.b.localhost:41001', 'bad host'].map((host) => origins.storeOfHost(host)),
    ['rosa', 'rosa', null, null, null, null, null], 'storeOfHost names the store of a store host only')
  const fixed = createOrigins(config({ PORT: '0', BASE_URL: 'https://api.example', STOREFRONT_URL: 'https://{store}.shops.example/' }))
  fixed.listening({ api: 41000, storefront: 41001 })
  t.same([fixed.baseUrl, fixed.adminUrl, fixed.storefrontUrl], ['https://api.example', 'https://api.example', 'https://{store}.shops.example'], 'configured URLs stay')
  t.equal(fixed.storeUrl('rosa'), 'https://rosa.shops.example/store/rosa', 'a template changes the host only')
  t.equal(fixed.storefrontSource, 'https://*.shops.example')
  for (const bad of ['https://shops.example/store', 'https://shops.{store}.example', 'https://{store}{store}.example', 'ftp://shops.example']) {
    t.throws(() => config({ STOREFRONT_URL: bad }), ConfigError, bad)
  }
})

t.test('isPlatformOrigin compares scheme, host and port; the loopback names are one host', async (t) => {
  const origins = createOrigins(config({ BASE_URL: 'http://localhost:3000', ADMIN_URL: 'https://admin.example', STOREFRONT_URL: 'https://{store}.shops.example' }))
  for (const url of ['http://localhost:3000/x', 'http://127.0.0.1:3000/cb', 'http://[::1]:3000', 'http://LOCALHOST:3000', 'https://admin.example/a', 'https://admin.example:443/',
    'https://rosa.shops.example/embed.js', 'https://other-store.shops.example', 'https://shops.example']) {
    t.ok(origins.isPlatformOrigin(url), `${url} is the platform`)
  }
  for (const url of ['http://localhost:3002', 'https://localhost:3000', 'http://admin.example', 'https://app.example', 'https://a.b.shops.example', 'not a url']) {
    t.notOk(origins.isPlatformOrigin(url), `${url} is not`)
  }
})

t.test('GET /store/... on the admin/API origin, with one storefront origin for every store', async (t) => {
  const app = await build(t, { env: { STOREFRONT_URL: 'http://localhost:3001' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const business = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json()
  t.equal(business.storefrontUrl, `http://localhost:3001/store/${business.slug}`, 'GET /merchant/business names the storefront')

  t.test('answers 308 to the same path on the storefront origin and never serves the store', async (t) => {
    for (const path of [`/store/${business.slug}`, `/store/${business.slug}/about?x=1`, '/store/_assets/host.js', `/store/${business.slug}/api/products`]) {
      const response = await app.inject({ url: path, headers: merchant.auth })
      t.equal(response.statusCode, 308, path)
      t.equal(response.headers.location, `http://localhost:3001${path}`)
      t.notMatch(response.body, '<html')
    }
    const post = await app.inject({ method: 'POST', url: `/store/${business.slug}/api/reviews`, payload: {} })
    t.equal(post.statusCode, 308, 'the customer API is not answered there either')
  })

  t.test('the storefront origin serves the stores, /media, and no API', async (t) => {
    const page = await app.storefront.inject({ url: `/store/${business.slug}` })
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /^text\/html/)
    for (const path of ['/merchant/business', '/auth/login', '/', '/admin', '/oauth/authorize', '/openapi.json']) {
      const response = await app.storefront.inject({ url: path, headers: merchant.auth })
      t.equal(response.statusCode, 404, `${path} is not served on the storefront`)
      t.notMatch(response.body, '<div id="app">')
    }
    t.equal((await app.storefront.inject({ method: 'POST', url: '/auth/logout', headers: merchant.auth })).statusCode, 404)
    t.equal((await app.storefront.inject({ url: '/media/med_nothing' })).statusCode, 404, '/media is routed (an unknown id is a 404)')
  })
})

t.test('per-store hosts: the template names the redirect target and each store keeps its own host', async (t) => {
  const app = await build(t, { env: { STOREFRONT_URL: 'https://{store}.shops.example' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const { slug, storefrontUrl } = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json()
  t.equal(storefrontUrl, `https://${slug}.shops.example/store/${slug}`)
  const redirect = await app.inject({ url: `/store/${slug}/about` })
  t.equal(redirect.headers.location, `https://${slug}.shops.example/store/${slug}/about`)
  t.equal((await app.inject({ url: '/store/_assets/host.js' })).statusCode, 404, 'no store, no host to send it to')
  t.equal((await app.storefront.inject({ url: `/store/${slug}`, headers: { host: `${slug}.shops.example` } })).statusCode, 200)
  const elsewhere = await app.storefront.inject({ url: `/store/${slug}`, headers: { host: 'other.shops.example' } })
  t.equal(elsewhere.statusCode, 308, "a store is never served on another store's host")
  t.equal(elsewhere.headers.location, `https://${slug}.shops.example/store/${slug}`)
  t.equal((await app.storefront.inject({ url: '/store/_assets/host.js', headers: { host: 'other.shops.example' } })).statusCode, 200, 'assets on any store host')
})

t.test('testConfig keeps its defaults', async (t) => {
  t.equal(testConfig().storefrontUrl, 'http://{store}.localhost:3001')
})

t.test('by default every store has its own host; the bare host answers the customer API and sends pages on', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const { slug, storefrontUrl } = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json()
  t.equal(storefrontUrl, `http://${slug}.localhost:3001/store/${slug}`, 'GET /merchant/business names the store on its own host')
  const own = { host: `${slug}.localhost:3001` }
  t.equal((await app.storefront.inject({ url: `/store/${slug}`, headers: own })).statusCode, 200, 'the store on its host')
  t.equal((await app.storefront.inject({ url: `/store/${slug}/api/products`, headers: own })).statusCode, 200, 'and its customer API')
  for (const host of ['localhost:3001', '127.0.0.1:3001']) {
    const page = await app.storefront.inject({ url: `/store/${slug}/about?x=1`, headers: { host } })
    t.equal(page.statusCode, 308, `a page on the bare host ${host} moves to the store's host`)
    t.equal(page.headers.location, `http://${slug}.localhost:3001/store/${slug}/about?x=1`)
    const api = await app.storefront.inject({ url: `/store/${slug}/api/products`, headers: { host } })
    t.equal(api.statusCode, 200, `the customer API answers on the bare host ${host}`)
  }
  const other = await app.storefront.inject({ url: `/store/${slug}/api/products`, headers: { host: 'someone-else.localhost:3001' } })
  t.equal(other.statusCode, 308, "another store's host serves neither its pages nor its API")
  t.equal(other.headers.location, `http://${slug}.localhost:3001/store/${slug}/api/products`)
  const fromApi = await app.inject({ url: `/store/${slug}` })
  t.equal(fromApi.headers.location, `http://${slug}.localhost:3001/store/${slug}`, 'the admin/API origin sends a store to its host')
  t.equal((await app.storefront.inject({ url: `/store/${slug}` })).statusCode, 200, 'an injected request without a Host is on the store\'s host')
  t.ok(app.origins.isPlatformOrigin('http://localhost:3001/hook'), 'the bare host is the platform: no app URL may point at it')
  t.ok(app.origins.isPlatformOrigin(`http://${slug}.localhost:3001/x`))
})
