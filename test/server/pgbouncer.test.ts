import { spawn, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import pg from 'pg'
import { build, testDatabaseUrl, until, SERVER_URL, portsOf } from '../helper.ts'
import { freePort } from '../process.ts'
import { installApp as installWebhookApp, receiver, registerWebhook } from '../plugins/webhooks/helpers.ts'

/** Debian's `pgbouncer` (CI installs it: .ci/run's services step); the test needs a PostgreSQL server (DATABASE_URL). */
const PGBOUNCER = '/usr/sbin/pgbouncer'
/** Fewer server connections than the two processes' pools hold: every client connection shares them, as in production. */
const SERVER_CONNECTIONS = 3
/** PgBouncer refuses to run as root: it runs as the PostgreSQL server's user. */
const RUN_AS = 'postgres'

const skip = SERVER_URL === null
  ? 'needs a PostgreSQL server (DATABASE_URL)'
  : !existsSync(PGBOUNCER) ? `${PGBOUNCER} is not installed (apt-get install pgbouncer)` : false

/** PgBouncer in transaction mode on a free loopback port, in front of the test's PostgreSQL server. */
async function startPgBouncer (t: Test, server: URL): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-test-'))
  chmodSync(dir, 0o755)
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const port = await freePort()
  writeFileSync(join(dir, 'userlist.txt'), `"${decodeURIComponent(server.username)}" ""\n`, { mode: 0o644 })
  writeFileSync(join(dir, 'pgbouncer.ini'), [
    '[databases]',
    `* = host=${server.hostname} port=${server.port === '' ? 5432 : server.port}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${SERVER_CONNECTIONS}`,
    'max_client_conn = 500',
    // node-postgres sends these start-up parameters; PgBouncer forwards only the ones it knows
    'ignore_startup_parameters = extra_float_digits,options',
    ''
  ].join('\n'), { mode: 0o644 })
  const uid = Number(execFileSync('id', ['-u', RUN_AS], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', RUN_AS], { encoding: 'utf8' }).trim())
  const child = spawn(PGBOUNCER, [join(dir, 'pgbouncer.ini')], { uid, gid, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += String(chunk) })
  child.stderr.on('data', (chunk: Buffer) => { output += String(chunk) })
  t.teardown(async () => {
    if (child.exitCode !== null) return
    child.kill('SIGTERM')
    await once(child, 'exit')
  })
  // ready once it answers a query
  const ready = await until(async () => {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output}`)
    const client = new pg.Client({ host: '127.0.0.1', port, user: decodeURIComponent(server.username), database: server.pathname.slice(1) })
    try {
      await client.connect()
      await client.query('select 1')
      return true
    } catch {
      return false
    } finally {
      await client.end().catch(() => {})
    }
  }, (ok) => ok, 30_000)
  if (!ready) throw new Error(`pgbouncer did not answer: ${output}`)
  return port
}

t.test('behind PgBouncer in transaction mode: App API reads, revocations and webhooks across a web and a worker process', { skip }, async (t) => {
  const direct = new URL(await testDatabaseUrl(t) as string)
  const port = await startPgBouncer(t, direct)
  const pooled = new URL(direct)
  pooled.hostname = '127.0.0.1'
  pooled.port = String(port)
  // processes of one deployment share their secrets (webhook secrets are encrypted with ENCRYPTION_KEY)
  const env = {
    DATABASE_LISTEN_URL: direct.toString(), JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex'), RATE_LIMIT_PER_MINUTE: '100000'
  }
  const web = await build(t, { databaseUrl: pooled.toString(), env: { ...env, PROCESS_ROLE: 'web' } })
  const worker = await build(t, { databaseUrl: pooled.toString(), env: { ...env, PROCESS_ROLE: 'worker' } })

  const installed = await installWebhookApp(web, { scopes: ['read_products', 'read_orders', 'write_orders', 'read_reviews'] })
  const target = await receiver(t)
  await registerWebhook(web, installed, target.url)

  t.test('App API lists: every page answers (no named prepared statements)', async (t) => {
    const paths = ['/app-api/orders', '/app-api/orders?status=PENDING', '/app-api/products', '/app-api/reviews', '/app-api/orders?page=2&limit=5']
    const answers = await Promise.all(Array.from({ length: 100 }, async (_, i) => {
      const app = i % 2 === 0 ? web : worker
      return await app.inject({ url: paths[i % paths.length], headers: installed.auth })
    }))
    const failed = answers.filter((response) => response.statusCode !== 200)
    t.equal(failed.length, 0, `100 of 100 lists answered 200${failed.length > 0 ? `; first failure: ${failed[0].body}` : ''}`)
    const [first] = answers
    const order = (first.json().data as Array<{ id: string }>)[0]
    t.equal((await web.inject({ url: `/app-api/orders/${order.id}`, headers: installed.auth })).statusCode, 200, 'an order by id')
  })

  t.test('orders placed on the web process are delivered by the worker process', async (t) => {
    const products = (await web.inject({ url: '/app-api/products', headers: installed.auth })).json().data as Array<{ id: string, isAvailable: boolean, stock: number }>
    const product = products.find((p) => p.isAvailable && p.stock >= 5)
    if (product === undefined) throw new Error('no product in stock in the sandbox')
    for (let i = 0; i < 5; i++) {
      const placed = await web.inject({
        method: 'POST', url: '/app-api/orders', headers: installed.auth,
        payload: { items: [{ productId: product.id, quantity: 1 }], customer: { name: `Ana ${i}` }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
      })
      t.equal(placed.statusCode, 201, `order ${i + 1} placed on the web process`)
    }
    const arrived = await target.waitFor(5)
    t.equal(arrived.filter((r) => JSON.parse(r.body).event === 'order.created').length, 5, 'five order.created deliveries')
    await portsOf(worker).webhooks.delivery.idle()
  })

  t.test('LISTEN over DATABASE_LISTEN_URL: a revocation on one process reaches the other', async (t) => {
    t.equal((await worker.inject({ url: '/app-api/products', headers: installed.auth })).statusCode, 200, 'the worker knows the token (cached)')
    const uninstalled = await web.inject({ method: 'POST', url: `/developer/apps/${installed.appId}/test-uninstall`, headers: installed.developer.auth })
    t.equal(uninstalled.statusCode, 200, uninstalled.body)
    // the worker's token cache drops it on the NOTIFY; bounded, so a lost notification fails here
    const status = await until(async () => (await worker.inject({ url: '/app-api/products', headers: installed.auth })).statusCode, (code) => code === 401, 10_000)
    t.equal(status, 401, 'the revoked token is refused on the other process')
  })
})
