import t from 'tap'
import type { InjectOptions } from 'fastify'
import { nulPath } from '../../server/plugins/input-guard.ts'
import { build, registerUser } from '../helper.ts'
import { installApp } from '../plugins/webhooks/helpers.ts'

t.test('nulPath names the first field holding a NUL', async (t) => {
  t.equal(nulPath({ a: 'x', b: { c: ['ok', 'n\u0000'] } }, 'body'), 'body/b/c/1')
  t.equal(nulPath({ 'k\u0000': 1 }, 'body'), 'body', 'a key counts too')
  t.equal(nulPath({ a: 'x', b: [1, true, null] }, 'body'), null)
  let deep: unknown = 'end\u0000'
  for (let i = 0; i < 100_000; i++) deep = [deep]
  t.equal(nulPath(deep, 'body')?.split('/').length, 100_001, 'deep nesting walks without exhausting the stack')
})

t.test('a NUL character anywhere in the input is a 400 naming the field, never a 500', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const installed = await installApp(app)
  const cases: Array<[string, InjectOptions, string]> = [
    ['login email (public)', { method: 'POST', url: '/auth/login', payload: { email: 'a\u0000@x.test', password: 'x' } }, 'body/email'],
    ['marketplace search (public)', { method: 'GET', url: '/marketplace/apps?q=%00' }, 'querystring/q'],
    ['media id (public)', { method: 'GET', url: '/media/a%00' }, 'params/id'],
    ['App API order id', { method: 'GET', url: '/app-api/orders/ord%00x', headers: installed.auth }, 'params/id'],
    ['webhook description', { method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'https://example.com/h', events: ['order.created'], description: 'a\u0000' } }, 'body/description'],
    ['product name', { method: 'POST', url: '/merchant/products', headers: merchant.auth, payload: { name: 'P\u0000', price: 1 } }, 'body/name']
  ]
  for (const [label, request, field] of cases) {
    const response = await app.inject(request)
    t.equal(response.statusCode, 400, label)
    t.same(response.json(), { statusCode: 400, error: 'Bad Request', message: `${field} must not contain NUL characters`, code: 'nul_character' }, `${label}: the error format, naming ${field}`)
  }
})

t.test('router errors use the error format and never echo the input', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const long = 'x'.repeat(5000)
  const tooLong = await app.inject({ method: 'GET', url: `/merchant/products/${long}`, headers: merchant.auth })
  t.equal(tooLong.statusCode, 400, 'a 5 000-character id reaches the route, whose schema refuses it')
  t.match(tooLong.json(), { statusCode: 400, error: 'Bad Request', message: /^params\/id must NOT have more than \d+ characters$/ })
  const media = await app.inject({ method: 'GET', url: `/media/${long}` })
  t.equal(media.statusCode, 400, 'the public media route too')
  t.match(media.json(), { statusCode: 400, error: 'Bad Request', message: /^params\/id/ })
  t.notMatch(media.body, long, 'the input is not echoed')

  const malformed = await app.inject({ method: 'GET', url: '/merchant/products/%E0%A4%A', headers: merchant.auth })
  t.equal(malformed.statusCode, 400)
  t.same(malformed.json(), { statusCode: 400, error: 'Bad Request', message: 'The URL is malformed: a path segment is not valid percent-encoding', code: 'malformed_url' })
})
