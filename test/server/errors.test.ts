import t from 'tap'
import Fastify from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import errorsPlugin from '../../server/plugins/errors.ts'
import { HttpError } from '../../server/http-errors.ts'
import { validatorCompiler } from '../../server/validation.ts'
import { build } from '../helper.ts'

async function bare () {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  await app.register(errorsPlugin)
  app.get('/boom', async () => { throw new Error('select * from secrets where password = 42') })
  app.get('/teapot', async () => { throw new HttpError(418, 'rate_limited', 'Short and stout', { hint: 'tip me over' }, { 'retry-after': '5' }) })
  app.post('/typed', { schema: { body: Type.Object({ n: Type.Integer() }, { additionalProperties: false }) } }, async () => ({ ok: true }))
  return app
}

t.test('errors plugin alone', async (t) => {
  const app = await bare()
  t.teardown(() => app.close())

  t.test('a 500 hides what went wrong', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/boom' })
    t.equal(response.statusCode, 500)
    const body = response.json()
    t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode'])
    t.equal(body.code, 'internal_error')
    t.equal(body.error, 'Internal Server Error')
    t.notMatch(response.body, /select|secrets|stack|at /)
  })

  t.test('an HttpError keeps its status, extra fields and headers', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/teapot' })
    t.equal(response.statusCode, 418)
    t.same(response.json(), { statusCode: 418, error: "I'm a Teapot", message: 'Short and stout', code: 'rate_limited', hint: 'tip me over' })
    t.equal(response.headers['retry-after'], '5')
  })

  t.test('validation errors are 400 in the same format', async (t) => {
    const wrongType = await app.inject({ method: 'POST', url: '/typed', payload: { n: 'x' } })
    t.equal(wrongType.statusCode, 400)
    t.match(wrongType.json(), { statusCode: 400, error: 'Bad Request', message: /body\/n must be integer/ })
    const unknownField = await app.inject({ method: 'POST', url: '/typed', payload: { n: 1, extra: true } })
    t.equal(unknownField.statusCode, 400)
    t.match(unknownField.json().message, /additional properties/)
    const numberForString = await app.inject({ method: 'POST', url: '/typed', payload: { n: '1' } })
    t.equal(numberForString.statusCode, 400, 'a string is not coerced into a body integer')
  })
})

t.test('errors through the whole app', async (t) => {
  const app = await build(t)

  t.test('unknown API route is a JSON 404', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/app-api/nothing-here' })
    t.equal(response.statusCode, 404)
    t.same(response.json(), { statusCode: 404, error: 'Not Found', message: 'Route GET /app-api/nothing-here not found', code: 'not_found' })
  })

  t.test('malformed JSON is 400', async (t) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email": ' })
    t.equal(response.statusCode, 400)
    t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: /not valid JSON/ })
  })

  t.test('a body over 1 MB is 413', async (t) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'a'.repeat(1024 * 1024), password: 'x' }) })
    t.equal(response.statusCode, 413)
    t.match(response.json(), { statusCode: 413, error: 'Payload Too Large' })
  })

  t.test('an unsupported content type is 415', async (t) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'text/csv' }, payload: 'a,b' })
    t.equal(response.statusCode, 415)
    t.match(response.json(), { statusCode: 415, error: 'Unsupported Media Type' })
  })

  t.test('every response carries a request id, and a given one is kept', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-123' } })
    t.equal(response.headers['x-request-id'], 'trace-123')
    const fresh = await app.inject({ method: 'GET', url: '/health' })
    t.match(fresh.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  })
})
