import t from 'tap'
import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { isApiPath } from '../../server/plugins/spa.ts'
import { ERROR_CODES } from '../../sdk/src/contract/error-codes.ts'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, REVIEWER_ENV, loginReviewer, within, type Session } from '../helper.ts'

/**
 * Walks every operation of the generated OpenAPI document and, as every role that may call it, sends
 * malformed input: wrong types, NUL characters, 100 KB strings, lone surrogates, deep nesting, huge and
 * negative numbers, unknown fields and wrong content types, in the path, the query and the body. Each
 * answer must come within the deadline, never be a 5xx, and carry the error format with a declared
 * stable `code` (the RFC 6749 shape, plus `code`, on the OAuth endpoints). fast-check's seed is fixed, so a failure names a reproducible case.
 */
const SEED = 20261122
const RUNS_PER_OPERATION = 16
const ANSWER_DEADLINE_MS = 10_000

interface Parameter { name: string, in: string, schema?: { maxLength?: number, 'x-clamped-maximum'?: number } }
interface Operation { method: string, path: string, security: Array<Record<string, string[]>>, parameters: Parameter[], documented: string[] }
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

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
  const streams: Operation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (method === 'servers' || method === 'parameters') continue
      const operation = {
        method: method.toUpperCase(), path, security: op.security ?? [], parameters: op.parameters ?? [], documented: Object.keys(op.responses ?? {})
      }
      // a server-sent event stream never ends, so inject cannot await it: it is read to its first event below
      if (op.responses?.['200']?.content?.['text/event-stream'] !== undefined) {
        streams.push(operation)
        continue
      }
      const json = op.requestBody?.content['application/json']
      operations.push({ ...operation, fields: Object.keys(json?.schema?.properties ?? {}) })
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

  await t.test('a path answers a method it does not have with 405 and Allow', async (t) => {
    const byPath = new Map<string, string[]>()
    for (const op of [...operations, ...streams]) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method])
    for (const [path, methods] of byPath) {
      // a GET outside the API's prefixes is the admin SPA's (the consent screen lives at GET /oauth/authorize)
      const method = METHODS.find((candidate) => !methods.includes(candidate) && !(candidate === 'GET' && !isApiPath(path))) as InjectOptions['method'] | undefined
      if (method === undefined) continue
      const url = path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeSegment(realIds[name]?.[0] ?? 'x'))
      const response = await (url.startsWith('/store/') ? app.storefront : app).inject({ method, url, headers: developer.auth })
      t.equal(response.statusCode, 405, `${method} ${path}`)
      const allow = String(response.headers.allow ?? '').split(', ')
      t.ok(methods.every((documented) => allow.includes(documented)), `${path}: Allow (${allow.join(', ')}) lists ${methods.join(', ')}`)
      t.notOk(allow.includes(method as string), `${path}: Allow leaves ${method} out`)
      t.match(response.json(), { statusCode: 405, error: 'Method Not Allowed', message: String, code: 'method_not_allowed' })
    }
  })

  await t.test('the document and the code agree on the rules they state', async (t) => {
    for (const op of operations.filter((candidate) => candidate.method === 'GET')) {
      const [role, auth] = callers(op)[0]
      const url = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeSegment(realIds[name]?.[0] ?? 'x'))
      const target = url.startsWith('/store/') ? app.storefront : app
      const limit = op.parameters.find((p) => p.in === 'query' && p.name === 'limit')
      const clamped = limit?.schema?.['x-clamped-maximum']
      if (clamped !== undefined) {
        // DESIGN §5: a larger limit is clamped, not refused, and the envelope says the limit used
        const response = await target.inject({ url: `${url}?limit=${clamped * 10}`, headers: auth })
        if (response.statusCode === 200) t.equal(response.json().limit, clamped, `GET ${op.path} as ${role}: limit clamped to ${clamped}`)
        else t.ok(op.documented.includes(String(response.statusCode)), `GET ${op.path}: ${response.statusCode} documented`)
        t.notOk('maximum' in (limit?.schema ?? {}), `GET ${op.path}: the document does not call a larger limit invalid`)
      }
      // one rule for unknown query parameters: ignored everywhere
      const unknown = await target.inject({ url: `${url}?unknownParameter=1`, headers: auth })
      const known = await target.inject({ url, headers: auth })
      t.equal(unknown.statusCode, known.statusCode, `GET ${op.path}: an unknown query parameter changes nothing`)
      for (const param of op.parameters.filter((p) => p.in === 'path' && p.schema?.maxLength !== undefined)) {
        const long = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => name === param.name ? 'x'.repeat((param.schema?.maxLength ?? 0) + 1) : encodeSegment(realIds[name]?.[0] ?? 'x'))
        const response = await target.inject({ url: long, headers: auth })
        t.ok([400, 404].includes(response.statusCode) && op.documented.includes(String(response.statusCode)), `GET ${op.path}: a too-long ${param.name} gets a documented ${response.statusCode}`)
      }
    }
  })

  await t.test('a server-sent event stream opens with its documented first event, and can be left', async (t) => {
    const listening = await listen(app)
    for (const op of streams) {
      const [, auth] = callers(op)[0]
      const url = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeSegment(realIds[name]?.[0] ?? 'x'))
      const controller = new AbortController()
      const response = await fetch(`${listening}${url}`, { headers: auth, signal: controller.signal })
      t.equal(response.status, 200, `${op.method} ${op.path}`)
      t.match(response.headers.get('content-type'), /^text\/event-stream/)
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      let text = ''
      while (!/event: \w+\ndata: .*\n\n/.test(text)) {
        const { value, done } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
      t.equal(/event: (\w+)\ndata: (.*)\n\n/.exec(text)?.slice(1).join(' '), 'ready {}', 'the first event is the documented `ready`')
      controller.abort()
      await reader.cancel().catch(() => {})
    }
  })

  let requests = 0
  const codes = new Set<string>()
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
        const response = await within(target.inject(request), ANSWER_DEADLINE_MS, 'an answer')
        const where = `${op.method} ${op.path} as ${role}`
        if (response.statusCode >= 500) throw new Error(`${where}: ${response.statusCode} ${response.body.slice(0, 300)}`)
        if (!op.documented.includes(String(response.statusCode))) {
          throw new Error(`${where}: ${response.statusCode} is not documented (${op.documented.join(', ')}): ${String(request.url).slice(0, 200)} ${response.body.slice(0, 300)}`)
        }
        if (response.statusCode < 400) return
        const payload = response.json() as Record<string, unknown>
        const rfc = op.path === '/oauth/token' || op.path === '/oauth/revoke'
        const fits = rfc
          ? typeof payload.error === 'string' && typeof payload.error_description === 'string' && payload.statusCode === response.statusCode
          : payload.statusCode === response.statusCode && typeof payload.error === 'string' && typeof payload.message === 'string'
        if (!fits) throw new Error(`${where}: ${response.statusCode} outside the error format: ${response.body.slice(0, 300)}`)
        if (typeof payload.code !== 'string' || !(payload.code in ERROR_CODES)) throw new Error(`${where}: ${response.statusCode} without a declared code: ${response.body.slice(0, 300)}`)
        codes.add(payload.code)
      }), { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true })
    }
  }
  t.pass(`${requests} malformed requests, none answered 5xx, outside the error format, without a declared code or with an undocumented status`)
  t.ok(codes.has('validation_failed') && codes.has('nul_character'), `codes seen: ${[...codes].sort().join(', ')}`)
})

/** Text of a JSON value nested `levels` deep, built as text (JSON.stringify itself recurses). */
const nestedText = (levels: number, kind: 'object' | 'array'): string =>
  kind === 'object' ? `${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}` : `${'['.repeat(levels)}1${']'.repeat(levels)}`

/** Settings schemas that stall a validator without the manifest's limits (DESIGN §21). */
const SCHEMA_BOMBS: Array<Record<string, unknown>> = [
  { type: 'object', properties: { t: { $ref: '#/$defs/n' } }, $defs: { n: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/n' } }, { type: 'array', items: { $ref: '#/$defs/n' } }] } } },
  { type: 'object', properties: { t: { $ref: '#' } } },
  { type: 'object', properties: { l: { anyOf: [{ type: 'array', uniqueItems: true }] } } },
  { type: 'object', properties: { l: { anyOf: [{ type: 'array', uniqueItems: true, maxItems: 100_000 }] } } },
  { type: 'object', properties: { s: { type: 'string', pattern: `^${'(a|a)*'.repeat(60)}$` } } },
  { type: 'object', properties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, { type: 'string' }])) },
  { type: 'object', $defs: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`d${i}`, i === 0 ? { type: 'integer' } : { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] }])), properties: { x: { $ref: '#/$defs/d15' } } },
  { type: 'object', properties: { x: { $ref: 'https://schemas.example.com/huge.json' } } },
  { type: 'object', properties: { x: { $id: 'https://collide.example.com/s', type: 'string' } } },
  // linear in the input but not in the pattern: counted repetition, case folding, nesting, and a long maxLength
  { type: 'object', properties: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`s${i}`, { type: 'string', pattern: '(?i)[a-zß]{0,1000}!' }])) },
  { type: 'object', properties: { s: { type: 'string', pattern: '(?i)[a-zß]{0,50}!' } } },
  { type: 'object', properties: { s: { type: 'string', pattern: '(a{0,20}){0,20}!' } } },
  { type: 'object', properties: { s: { type: 'string', pattern: '[a-z]{0,100}!' } } }
]

t.test('deep JSON bodies and schema bombs, on every operation that takes a body', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, RATE_LIMIT_PER_MINUTE: '1000000', STOREFRONT_RATE_LIMIT_PER_MINUTE: '1000000' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const created = await createApp(app, developer)
  const document = app.swagger() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> }
  let refusedForDepth = 0
  let sent = 0
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (op.requestBody?.content['application/json'] === undefined) continue
      const url = path.replace(/\{[^}]+\}/g, (name) => name === '{appId}' ? created.app.id : 'nope')
      const target = url.startsWith('/store/') ? app.storefront : app
      for (const auth of [developer.auth, merchant.auth]) {
        for (const levels of [33, 10_000]) {
          sent++
          const response = await target.inject({ method: method.toUpperCase() as 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: `{"x":${nestedText(levels, levels % 2 === 0 ? 'array' : 'object')}}` })
          t.ok(response.statusCode < 500, `${method} ${path}: ${response.statusCode}`)
          if (response.statusCode === 400 && response.json().code === 'json_too_deep') refusedForDepth++
        }
      }
    }
  }
  t.ok(refusedForDepth >= sent / 4, `${refusedForDepth} of ${sent} deep bodies refused for their depth (the rest stopped earlier: 401, 403, 404, 415)`)

  for (const [i, settingsSchema] of SCHEMA_BOMBS.entries()) {
    const started = performance.now()
    const response = await app.inject({
      method: 'PUT', url: `/developer/apps/${created.app.id}/manifest?dryRun=true`, headers: developer.auth,
      payload: { manifest: { settingsSchema, blocks: [{ blockType: 'b', name: 'B', renderUrl: 'https://app.example.com/b', settingsSchema, defaultConfig: { t: [[[[[[[[[[[[[[[['x']]]]]]]]]]]]]]]], l: Array.from({ length: 3000 }, (_, n) => n), s: `${'a'.repeat(5000)}!` } }] } }
    })
    const ms = performance.now() - started
    t.equal(response.statusCode, 400, `bomb ${i}: refused`)
    t.match(response.json(), { code: 'manifest_invalid', message: /settingsSchema: (breaks a platform limit|is not a valid JSON Schema)/ }, `bomb ${i}: names the problem`)
    t.ok(ms < 1000, `bomb ${i}: answered in ${ms.toFixed(0)} ms`)
  }
})
