import t from 'tap'
import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { build, createApp, oauthInstall, publishApp, registerUser, REVIEWER_ENV, loginReviewer, type Session } from '../helper.ts'

/**
 * Walks every operation of the generated OpenAPI document and, as every role that may call it, sends
 * malformed input: wrong types, NUL characters, 100 KB strings, lone surrogates, deep nesting, huge and
 * negative numbers, unknown fields and wrong content types, in the path, the query and the body. Each
 * answer must come within the deadline, never be a 5xx, and carry the error format (the RFC 6749
 * shape on the OAuth endpoints). fast-check's seed is fixed, so a failure names a reproducible case.
 */
const SEED = 20261122
const RUNS_PER_OPERATION = 16
const ANSWER_DEADLINE_MS = 10_000

interface Operation { method: string, path: string, security: Array<Record<string, string[]>>, parameters: Array<{ name: string, in: string }> }

const deep = (depth: number): unknown => { let value: unknown = 'bottom'; for (let i = 0; i < depth; i++) value = [value]; return value }
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', 'x'.repeat(100_000), '\uD800', '\uDFFFtail', '', '%00', '😀'.repeat(300), "' or 1=1 --", '../../etc/passwd') },
  { weight: 1, arbitrary: fc.string() }
)
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(1e308, -1, -1e308, 2 ** 64, 0.5, true, null, deep(2000), [], {}) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.array(hostileString, { maxLength: 3 }), fc.dictionary(hostileString, hostileString, { maxKeys: 3 }))
  }
)
/** Each known field (or parameter) present or not, holding a hostile value; plus an unknown one now and then. */
const fieldsOf = (names: string[]) => fc.record({
  ...Object.fromEntries(names.map((name) => [name, hostileValue])),
  ...(names.length < 12 ? { unknownField: hostileValue } : {})
}, { requiredKeys: [] })
/** A body: an object of known fields most of the time, else any value at all. */
const bodyOf = (fields: string[]) => fc.oneof({ weight: 3, arbitrary: fieldsOf(fields) }, { weight: 1, arbitrary: hostileValue })
const contentType = fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x')

function encodeSegment (value: unknown): string {
  try {
    return encodeURIComponent(String(value))
  } catch {
    return 'lone%ED%A0%80surrogate' // a lone surrogate cannot be encoded as UTF-8: send its raw bytes
  }
}

function serialize (body: unknown, type: string): string {
  if (type.startsWith('application/json')) return JSON.stringify(body) ?? 'null'
  if (type === 'application/x-www-form-urlencoded' && body !== null && typeof body === 'object') {
    return Object.entries(body).map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(typeof v === 'string' ? v : JSON.stringify(v))}`).join('&')
  }
  return typeof body === 'string' ? body : JSON.stringify(body) ?? ''
}

/** Non-destructive operations first: an uninstall, a logout or a new client secret would end what follows. */
const destructive = (op: Operation) => op.method === 'DELETE' || /logout|client-secret|test-uninstall|\/revoke/.test(op.path)

t.test('every operation of /openapi.json, as every role that can call it, answers malformed input without a 5xx', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, RATE_LIMIT_PER_MINUTE: '1000000', STOREFRONT_RATE_LIMIT_PER_MINUTE: '1000000' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const reviewer = await loginReviewer(app)
  const created = await createApp(app, developer, { scopes: ['read_products', 'read_orders', 'write_orders', 'read_reviews', 'read_business', 'read_pages', 'read_analytics', 'write_payments'] })
  await publishApp(app, developer, created.app.id)
  const client = { clientId: created.app.clientId, clientSecret: created.clientSecret, redirectUrl: created.app.redirectUrl }
  const installed = await oauthInstall(app, merchant, client)
  const product = (await app.inject({ method: 'POST', url: '/merchant/products', headers: merchant.auth, payload: { name: 'Fuzz pie', price: 100, stock: 5 } })).json()
  const webhook = (await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'https://hooks.example.com/h', events: ['order.created'] } })).json()
  const business = (await app.inject({ method: 'GET', url: '/merchant/business', headers: merchant.auth })).json()
  const realIds: Record<string, string[]> = {
    appId: [created.app.id], id: [installed.installationId, webhook.id, product.id], slug: [created.app.slug, 'home'],
    businessSlug: [business.slug], deliveryId: ['dlv_none']
  }
  const basic = { authorization: `Basic ${Buffer.from(`${created.app.clientId}:${created.clientSecret}`).toString('base64')}` }

  const document = app.swagger() as {
    paths: Record<string, Record<string, {
      security?: Operation['security'], parameters?: Operation['parameters'], requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> },
      responses?: Record<string, { content?: Record<string, unknown> }>
    }>>
  }
  const operations: Array<Operation & { fields: string[] }> = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      // a server-sent event stream never ends, so inject cannot await it: the live tail's refusals are tested in
      // test/plugins/app-analytics/console.test.ts (401, 403, another developer's app 404, 429)
      if (op.responses?.['200']?.content?.['text/event-stream'] !== undefined) continue
      const json = op.requestBody?.content['application/json']
      operations.push({
        method: method.toUpperCase(), path, security: op.security ?? [], parameters: op.parameters ?? [],
        fields: Object.keys(json?.schema?.properties ?? {})
      })
    }
  }
  operations.sort((a, b) => Number(destructive(a)) - Number(destructive(b)))
  t.ok(operations.length >= 80, `${operations.length} operations in the document`)

  /** Who may call an operation: its security scheme, and for session routes the roles of its prefix. */
  function callers (op: Operation): Array<[string, Record<string, string>]> {
    const scheme = Object.keys(op.security[0] ?? {})[0]
    if (scheme === undefined) return [['public', {}]]
    if (scheme === 'appToken') return [['app', installed.auth]]
    if (scheme === 'clientBasic') return [['client', basic]]
    const as = (name: string, session: Session): [string, Record<string, string>] => [name, session.auth]
    if (op.path.startsWith('/review')) return [as('reviewer', reviewer)]
    if (op.path.startsWith('/developer')) return [as('developer', developer)]
    if (op.path.startsWith('/merchant')) return [as('merchant', merchant), as('developer', developer)]
    return [as('merchant', merchant), as('developer', developer), as('reviewer', reviewer)]
  }

  let requests = 0
  for (const op of operations) {
    for (const [role, auth] of callers(op)) {
      const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name)
      const queryParams = op.parameters.filter((p) => p.in === 'query').map((p) => p.name)
      const input = fc.record({
        params: fc.tuple(...pathParams.map((name) => fc.oneof(fc.constantFrom(...(realIds[name] ?? ['nope'])), hostileString, hostileString))),
        query: fieldsOf(queryParams),
        body: bodyOf(op.fields),
        type: contentType
      })
      await fc.assert(fc.asyncProperty(input, async ({ params, query, body, type }) => {
        let url = op.path
        pathParams.forEach((name, i) => { url = url.replace(`{${name}}`, encodeSegment(params[i])) })
        const search = Object.entries(query).map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(typeof v === 'string' ? v : JSON.stringify(v))}`).join('&')
        const request: InjectOptions = { method: op.method as InjectOptions['method'], url: search === '' ? url : `${url}?${search}`, headers: { ...auth } }
        if (op.method !== 'GET' && op.method !== 'DELETE') {
          request.headers = { ...request.headers, 'content-type': type }
          request.payload = serialize(body, type)
        }
        const target = url.startsWith('/store/') ? app.storefront : app
        requests++
        const response = await Promise.race([
          target.inject(request),
          new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${ANSWER_DEADLINE_MS} ms`)), ANSWER_DEADLINE_MS).unref())
        ])
        const where = `${op.method} ${op.path} as ${role}`
        if (response.statusCode >= 500) throw new Error(`${where}: ${response.statusCode} ${response.body.slice(0, 300)}`)
        if (response.statusCode < 400) return
        const payload = response.json() as Record<string, unknown>
        const rfc = op.path === '/oauth/token' || op.path === '/oauth/revoke'
        const fits = rfc
          ? typeof payload.error === 'string' && typeof payload.error_description === 'string' && payload.statusCode === response.statusCode
          : payload.statusCode === response.statusCode && typeof payload.error === 'string' && typeof payload.message === 'string'
        if (!fits) throw new Error(`${where}: ${response.statusCode} outside the error format: ${response.body.slice(0, 300)}`)
      }), { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true })
    }
  }
  t.pass(`${requests} malformed requests, none answered 5xx or outside the error format`)
})
