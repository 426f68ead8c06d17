import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { App } from '../../server/app.ts'
import { createApp, registerUser, testDatabaseUrl, until } from '../helper.ts'
import { freePort, startServer, stopServer } from '../process.ts'
import { startAppServer } from '../plugins/checkout-hooks/fixtures.ts'

interface Attribute { key: string, value: { stringValue?: string, intValue?: number | string } }
interface Span { traceId: string, spanId: string, parentSpanId?: string, name: string, attributes: Attribute[] }

/** OTLP/JSON ids are hex; some encoders send base64. */
const hex = (id: string) => /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex')

/** A local OTLP/HTTP receiver (JSON, as @opentelemetry/exporter-trace-otlp-http sends): keeps every span. */
async function otlpReceiver (t: Test) {
  const spans: Span[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => { body += chunk })
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> }
        for (const resource of parsed.resourceSpans) {
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans) {
              spans.push({ ...span, traceId: hex(span.traceId), spanId: hex(span.spanId), parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : hex(span.parentSpanId) })
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans }
}

/** The helpers' `app.inject`, over real HTTP to a server process. */
function remote (base: string): App {
  const inject = async (options: { method?: string, url: string, headers?: Record<string, string>, payload?: unknown }) => {
    const response = await fetch(`${base}${options.url}`, {
      method: options.method ?? 'GET',
      headers: { ...options.headers, ...(options.payload === undefined ? {} : { 'content-type': 'application/json' }) },
      body: options.payload === undefined ? undefined : JSON.stringify(options.payload)
    })
    const body = await response.text()
    return { statusCode: response.status, body, json: () => JSON.parse(body) }
  }
  return { inject } as unknown as App
}

const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value

t.test('OTEL_EXPORTER_OTLP_ENDPOINT: a request, its database calls, its hook call and the webhook attempt it causes, in one trace', async (t) => {
  const receiver = await otlpReceiver(t)
  const appServer = await startAppServer(t, { '/base': () => ({ json: {} }), '/base/validate': () => ({ json: { valid: true } }) })
  const databaseUrl = await testDatabaseUrl(t)
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-tracing-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const port = await freePort()
  const server = await startServer({
    PORT: String(port),
    DEMO_SEED: 'false',
    ...(databaseUrl === null
      ? { DATA_DIR: dataDir }
      : { DATABASE_URL: databaseUrl, JWT_SECRET: randomBytes(24).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') }),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    // export within a tenth of a second rather than the default five
    OTEL_BSP_SCHEDULE_DELAY: '100'
  })
  t.teardown(() => { server.child.kill('SIGKILL') })
  const platform = remote(`http://127.0.0.1:${port}`)

  const developer = await registerUser(platform, 'DEVELOPER')
  const { app: created } = await createApp(platform, developer, {
    webhookUrl: `${appServer.url}/base`, webhookEvents: ['order.created'], scopes: ['read_products', 'read_orders', 'write_orders']
  })
  const manifest = await platform.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { hooks: [{ hookPoint: 'order.validate', url: '/validate' }] } } })
  t.equal(manifest.statusCode, 200, manifest.body)
  const install = await platform.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })
  t.equal(install.statusCode, 201, install.body)
  const auth = { authorization: `Bearer ${install.json().accessToken as string}` }
  const products = (await platform.inject({ url: '/app-api/products', headers: auth })).json().data as Array<{ id: string, isAvailable: boolean, stock: number }>
  const product = products.find((p) => p.isAvailable && p.stock > 0)
  if (product === undefined) throw new Error('no product to order in the sandbox')

  // the caller's own trace, continued by the platform
  const traceId = randomBytes(16).toString('hex')
  const order = await platform.inject({
    method: 'POST', url: '/app-api/orders', headers: { ...auth, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    payload: { items: [{ productId: product.id, quantity: 1 }], customer: { name: 'Ana', phone: '+15550100' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
  })
  t.equal(order.statusCode, 201, order.body)
  t.ok(appServer.calls.some((call) => call.path === '/base/validate'), 'the hook was called')

  const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId)
  const expected = (spans: Span[]) => ({
    request: spans.find((s) => s.name === 'request' && attribute(s, 'http.route')?.stringValue === '/app-api/orders'),
    hook: spans.find((s) => s.name === 'hook call order.validate'),
    attempt: spans.find((s) => s.name === 'webhook attempt order.created'),
    outgoing: spans.filter((s) => attribute(s, 'url.full')?.stringValue?.startsWith(appServer.url) === true),
    database: spans.filter((s) => attribute(s, 'db.system')?.stringValue === 'postgresql' || attribute(s, 'db.system.name')?.stringValue === 'postgresql')
  })
  const complete = (spans: Span[]) => {
    const found = expected(spans)
    return found.request !== undefined && found.hook !== undefined && found.attempt !== undefined && found.outgoing.length >= 2 &&
      (databaseUrl === null || found.database.length > 0)
  }
  // bounded, so that a missing span fails with what arrived
  const spans = await until(async () => inTrace(), complete, 60_000)
  const found = expected(spans)
  t.ok(found.request, 'the request span (@fastify/otel), under the caller\'s trace id')
  t.ok(found.hook, 'the hook call span')
  t.ok(found.attempt, 'the webhook attempt span, carried through the outbox to the delivery worker')
  t.equal(found.outgoing.length, 2, 'the two outgoing HTTP requests (undici): the hook call and the webhook')
  const hookRequest = found.outgoing.find((s) => attribute(s, 'url.full')?.stringValue?.endsWith('/validate') === true)
  t.equal(hookRequest?.parentSpanId, found.hook?.spanId, 'the hook\'s HTTP request is a child of the hook call span')
  if (databaseUrl !== null) t.ok(found.database.length > 0, `the database calls (pg): ${found.database.length} spans`)
  else t.comment('PGlite: no driver spans (the pg instrumentation traces PostgreSQL)')
  t.ok(spans.length >= 5, `${spans.length} spans in the trace: ${[...new Set(spans.map((s) => s.name))].join(', ')}`)

  const logged = await until(async () => server.output(), (output) => output.includes(`"trace_id":"${traceId}"`), 10_000)
  const line = logged.split('\n').find((l) => l.includes(`"trace_id":"${traceId}"`) && l.includes('request completed'))
  t.ok(line, 'the request\'s log line carries its trace id')
  t.equal(await stopServer(server), 0)
})
