import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { compilePendingSchemas, sharedSerializers, withCheapUnions } from '../../server/schema-compilers.ts'
import { validatorCompiler } from '../../server/validation.ts'
import { build } from '../helper.ts'

/** A bare fastify with the app's compilers (server/app.ts). */
function bare () {
  const app = Fastify({ logger: false, schemaController: { compilersFactory: { buildSerializer: sharedSerializers } } }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  return app
}

t.test('every route schema of the app compiles: they are compiled on first use, not at ready', async (t) => {
  await build(t)
  t.ok(compilePendingSchemas() > 0, 'the built app left schemas for their first request')
  t.equal(compilePendingSchemas(), 0, 'none left once compiled')
})

t.test('a schema compiled on its first request validates, coerces, defaults and serializes as one compiled at ready did', async (t) => {
  const app = bare()
  t.teardown(() => app.close())
  // shapes of this test's own (a key no other schema has), so that nothing compiled them before
  const own = `own${process.pid}`
  app.post('/things/:id', {
    schema: {
      params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
      querystring: Type.Object({ [own]: Type.Optional(Type.Boolean()), limit: Type.Integer({ default: 20 }) }, { additionalProperties: false }),
      body: Type.Object({ name: Type.String({ minLength: 1 }), [own]: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 200: Type.Object({ id: Type.Integer(), limit: Type.Integer(), name: Type.String(), [own]: Type.Boolean() }) }
    }
  }, async (request) => ({ id: request.params.id, limit: request.query.limit, name: request.body.name, [own]: true, hidden: 'not in the schema' }))
  app.get('/never', { schema: { querystring: Type.Object({ [`${own}never`]: Type.String() }) } }, async () => ({}))
  await app.ready()

  const ok = await app.inject({ method: 'POST', url: '/things/7?unknown=1', payload: { name: 'a' } })
  t.equal(ok.statusCode, 200)
  t.same(ok.json(), { id: 7, limit: 20, name: 'a', [own]: true }, 'the path param coerced, the default filled, an unknown query parameter ignored, the response serialized by its schema')
  const badParam = await app.inject({ method: 'POST', url: '/things/0', payload: { name: 'a' } })
  t.equal(badParam.statusCode, 400)
  t.match(badParam.json().message, /params\/id must be >= 1/, 'the validator\'s errors are the ones fastify reports')
  const badBody = await app.inject({ method: 'POST', url: '/things/1', payload: { name: 'a', extra: true } })
  t.equal(badBody.statusCode, 400)
  t.match(badBody.json().message, /body must NOT have additional properties/)
  const wrongType = await app.inject({ method: 'POST', url: '/things/1', payload: { name: 5 } })
  t.equal(wrongType.statusCode, 400, 'a body is not coerced')
  t.equal(compilePendingSchemas(), 1, 'only the route never asked for was left to compile')
})

t.test('a schema that cannot compile fails on its first request, and compilePendingSchemas names its route', async (t) => {
  const app = bare()
  t.teardown(() => app.close())
  app.post('/broken', { schema: { body: { type: 'object', properties: { n: { type: 'no-such-type' } } } } }, async () => ({}))
  await app.ready()
  t.equal((await app.inject({ method: 'POST', url: '/broken', payload: { n: 1 } })).statusCode, 500)
  t.throws(() => compilePendingSchemas(), /POST \/broken: the body schema does not compile: type must be JSONType/)
})

t.test('unions are written without validating the value against each option, and as fastify\'s own serializer writes them', async (t) => {
  const Page = Type.Object({ data: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }) })), total: Type.Integer(), page: Type.Integer() })
  const Cursor = Type.Object({ data: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }) })), nextCursor: Type.Union([Type.String(), Type.Null()]) })
  const Answer = Type.Object({
    list: Type.Union([Page, Cursor]),
    status: Type.Union([Type.Literal('OPEN'), Type.Literal('DONE')]),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    // no property tells these apart: left as the union it is
    either: Type.Union([Type.Object({ a: Type.Integer() }), Type.Object({ a: Type.String() })])
  })
  const cheap = withCheapUnions(Answer) as any
  t.same(cheap.properties.status, { type: 'string' }, 'literals of one type: that type')
  t.match(cheap.properties.expiresAt, { if: { type: 'null' }, then: { type: 'null' }, else: { type: 'string', format: 'date-time' } }, 'nullable: null tested first')
  t.match(cheap.properties.list, { if: { type: 'object', required: ['total'] }, then: { required: ['data', 'total', 'page'] }, else: { required: ['data', 'nextCursor'] } },
    'envelopes: by a property only the first has')
  t.ok(Array.isArray(cheap.properties.either.anyOf), 'a union nothing tells apart stays')
  t.ok(Array.isArray((Answer.properties.list as any).anyOf), 'the schema itself is untouched')

  const at = new Date('2026-11-29T10:00:00.000Z')
  const values = [
    { list: { data: [{ at }], total: 1, page: 1, extra: 'dropped' }, status: 'OPEN', expiresAt: null, note: 'n', either: { a: 1 } },
    { list: { data: [{ at: at.toISOString() }], nextCursor: null }, status: 'DONE', expiresAt: at, note: null, either: { a: 'x' } },
    { list: { data: [], nextCursor: 'c1' }, status: 'DONE', expiresAt: at.toISOString(), note: null, either: { a: 2 } }
  ]
  const shared = bare()
  const plain = Fastify({ logger: false })
  t.teardown(async () => { await shared.close(); await plain.close() })
  for (const app of [shared, plain] as unknown as FastifyInstance[]) {
    app.post('/answer', { schema: { response: { 200: Answer } } }, async (request) => values[Number((request.body as { n: number }).n)])
  }
  for (let n = 0; n < values.length; n++) {
    const ours = await shared.inject({ method: 'POST', url: '/answer', payload: { n } })
    const theirs = await plain.inject({ method: 'POST', url: '/answer', payload: { n } })
    t.equal(ours.statusCode, 200)
    t.equal(ours.body, theirs.body, `value ${n}: written as fastify's own serializer writes it`)
  }
  t.notOk(JSON.parse((await shared.inject({ method: 'POST', url: '/answer', payload: { n: 0 } })).body).list.extra, 'the envelope keeps to its schema')
})
