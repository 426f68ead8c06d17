import t from 'tap'
import { isApiPath } from '../../server/plugins/spa.ts'
import { build } from '../helper.ts'

t.test('isApiPath', async (t) => {
  for (const path of ['/auth/login', '/app-api', '/app-api/products?x=1', '/webhooks', '/oauth/token', '/oauth/authorize/info', '/docs/json', '/health']) {
    t.ok(isApiPath(path), path)
  }
  for (const path of ['/', '/login', '/portal/apps/1', '/admin/x', '/reviewer', '/oauth/authorize', '/apps/some-slug', '/authors', '/webhooksx']) {
    t.notOk(isApiPath(path), path)
  }
})

t.test('the SPA is served at / with client-side routes falling back to index.html', async (t) => {
  const app = await build(t)
  const home = await app.inject({ method: 'GET', url: '/' })
  t.equal(home.statusCode, 200)
  t.match(home.headers['content-type'], /text\/html/)
  t.match(home.body, /<div id="app">/)

  const asset = home.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1]
  t.ok(asset, 'index.html links a script')
  const script = await app.inject({ method: 'GET', url: asset as string })
  t.equal(script.statusCode, 200)
  t.match(script.headers['content-type'], /javascript/)

  for (const route of ['/login', '/portal/apps/abc', '/oauth/authorize?client_id=x']) {
    const response = await app.inject({ method: 'GET', url: route })
    t.equal(response.statusCode, 200, route)
    t.match(response.body, /<div id="app">/, route)
  }

  const api = await app.inject({ method: 'GET', url: '/developer/unknown' })
  t.equal(api.statusCode, 404)
  t.equal(api.json().error, 'Not Found')

  const post = await app.inject({ method: 'POST', url: '/portal/apps' })
  t.equal(post.statusCode, 404, 'only GET falls back')
  t.equal(post.json().statusCode, 404)
})

t.test('operations routes', async (t) => {
  const app = await build(t)
  t.same((await app.inject({ method: 'GET', url: '/health' })).json(), { status: 'ok' })
  t.same((await app.inject({ method: 'GET', url: '/ready' })).json(), { status: 'ready' })
  const docs = await app.inject({ method: 'GET', url: '/docs/' })
  t.equal(docs.statusCode, 200)
  t.match(docs.body, /swagger/i)
  const doc = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(doc.json().openapi, '3.1.0')
  // the document, its UI and the metrics are routes too: a method they lack is a 405, not a 404
  for (const url of ['/openapi.json', '/metrics', '/health']) {
    const posted = await app.inject({ method: 'POST', url })
    t.equal(posted.statusCode, 405, `POST ${url}`)
    t.equal(posted.headers.allow, 'GET, HEAD', `POST ${url}: Allow`)
    t.equal(posted.json().code, 'method_not_allowed')
  }

  t.test('/ready is 503 when the database is gone', async (t) => {
    await app.database.close()
    const response = await app.inject({ method: 'GET', url: '/ready' })
    t.equal(response.statusCode, 503)
    t.same(response.json(), { status: 'unavailable', reason: 'database unreachable' })
  })
})
