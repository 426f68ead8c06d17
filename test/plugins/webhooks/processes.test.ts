import t from 'tap'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { build, portsOf, REVIEWER_ENV, SERVER_URL, testDatabaseUrl, until } from '../../helper.ts'
import { installApp, placeOrder, receiver, registerWebhook } from './helpers.ts'
import { freePort, startServer } from '../../process.ts'

const start = async (env: Record<string, string>) => (await startServer({ DEMO_SEED: 'false', ...env })).child

async function call (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text === '' ? null : JSON.parse(text)
}

// two server starts and a lease expiry: its budget is its weight in test/shards/shards.ts (a root t.setTimeout would be the whole group's)

t.test('SIGKILL with deliveries pending: after a restart every event arrives, duplicates only with the same event id', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-crash-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const databaseUrl = await testDatabaseUrl(t)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let hang = true
  const sink = await receiver(t, () => (hang ? { delayMs: 60_000 } : {}))
  const env = {
    PORT: String(port), DATA_DIR: dataDir, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1,1,1', ...REVIEWER_ENV,
    ...(databaseUrl !== null ? { DATABASE_URL: databaseUrl, JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') } : {})
  }
  let child = await start(env)
  t.teardown(() => { child.kill('SIGKILL') })

  const dev = await call(base, 'POST', '/auth/register', { email: `dev-${process.pid}@example.com`, password: 'correct-horse', name: 'Dev', role: 'DEVELOPER' })
  const devAuth = { authorization: `Bearer ${dev.token}` }
  const redirectUrl = 'https://app.example.com/oauth/callback'
  const created = await call(base, 'POST', '/developer/apps', {
    name: 'Crash test', slug: `crash-${process.pid}`, description: 'Crash test app.', category: 'analytics', scopes: ['read_products'], redirectUrl, webhookUrl: sink.url, webhookEvents: ['product.created']
  }, devAuth)
  await call(base, 'POST', `/developer/apps/${created.app.id}/submit`, undefined, devAuth)
  const reviewer = await call(base, 'POST', '/auth/login', { email: REVIEWER_ENV.REVIEWER_EMAIL, password: REVIEWER_ENV.REVIEWER_PASSWORD })
  await call(base, 'POST', `/review/apps/${created.app.id}/approve`, {}, { authorization: `Bearer ${reviewer.token}` })
  const merchant = await call(base, 'POST', '/auth/register', { email: `m-${process.pid}@example.com`, password: 'correct-horse', name: 'M', role: 'MERCHANT', businessName: 'Crash shop' })
  const merchantAuth = { authorization: `Bearer ${merchant.token}` }
  const { redirectTo } = await call(base, 'POST', '/oauth/authorize', { client_id: created.app.clientId, redirect_uri: redirectUrl, response_type: 'code', decision: 'approve' }, merchantAuth)
  const code = new URL(redirectTo).searchParams.get('code')
  await call(base, 'POST', '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUrl },
    { authorization: 'Basic ' + Buffer.from(`${created.app.clientId}:${created.clientSecret}`).toString('base64') })

  const products: string[] = []
  for (let i = 0; i < 10; i++) products.push((await call(base, 'POST', '/merchant/products', { name: `P${i}`, price: 100, stock: 5 }, merchantAuth)).id)
  await sink.waitFor(3)
  child.kill('SIGKILL')
  await once(child, 'exit')
  hang = false
  const before = sink.received.length

  child = await start(env)
  const delivered = () => new Set(sink.received.slice(before).map((r) => JSON.parse(r.body).data.id as string))
  await until(async () => delivered().size, (n) => n >= products.length)
  t.same([...delivered()].sort(), [...products].sort(), 'every product.created delivered after the restart')
  const idsByProduct = new Map<string, Set<string>>()
  for (const r of sink.received) {
    const id = JSON.parse(r.body).data.id as string
    idsByProduct.set(id, (idsByProduct.get(id) ?? new Set()).add(String(r.headers['x-service-event-id'])))
  }
  t.ok([...idsByProduct.values()].every((ids) => ids.size === 1), 'a repeated delivery carries the same X-Service-Event-Id')
  child.kill('SIGTERM')
  await once(child, 'exit')
})

t.test('two processes on one PostgreSQL: each delivery attempted once per retry step', { skip: SERVER_URL === null ? 'PostgreSQL only (DATABASE_URL)' : false }, async (t) => {
  const databaseUrl = await testDatabaseUrl(t)
  // processes of one deployment share ENCRYPTION_KEY (webhook secrets are encrypted with it)
  const env = { ENCRYPTION_KEY: randomBytes(32).toString('hex'), WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1,1,1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' }
  const first = await build(t, { databaseUrl, env })
  const second = await build(t, { databaseUrl, env })
  const seen = new Map<string, number>()
  const sink = await receiver(t, (request) => {
    const id = String(request.headers['x-service-event-id'])
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    return { status: n <= 2 ? 500 : 200 }
  })
  const installed = await installApp(first)
  await registerWebhook(first, installed, sink.url)
  const orders = 20
  for (let i = 0; i < orders; i++) await placeOrder(i % 2 === 0 ? first : second, installed.businessId)
  await sink.waitFor(orders * 3)
  // every delivery settled and both processes idle: no attempt can still be on its way
  const pending = async () => (await first.database.executeSql("select count(*)::int as n from webhook_deliveries where status = 'PENDING'")).rows[0].n as number
  t.equal(await until(pending, (n) => n === 0), 0, 'no delivery left pending')
  await Promise.all([portsOf(first).webhooks.delivery.idle(), portsOf(second).webhooks.delivery.idle()])
  t.equal(seen.size, orders, 'one delivery per event')
  t.ok([...seen.values()].every((n) => n === 3), `each delivery attempted 3 times: ${[...seen.values()].join(',')}`)
  // the write that records an event's last delivery stamps it (under the lease its dispatch set): none is left behind, none stamped early
  const [outbox] = (await first.database.executeSql(`select count(*) filter (where dispatched_at is null)::int as undispatched,
    count(*) filter (where event = 'order.created' and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'SUCCEEDED'))::int as unrecorded
    from outbox_events e where business_id = $1`, [installed.businessId])).rows
  t.same(outbox, { undispatched: 0, unrecorded: 0 }, 'every event stamped, each with its delivery recorded')
})
