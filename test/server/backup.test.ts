import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { addMember } from '../plugins/auth/staff-helpers.ts'
import { buildApp, type App } from '../../server/app.ts'
import { backup, restore } from '../../server/backup.ts'
import { openDatabase, type Database } from '../../server/db/client.ts'
import { DataDirInUseError } from '../../server/db/data-dir-lock.ts'
import { loadConfig } from '../../server/config.ts'
import { listen, registerUser, REVIEWER_ENV, portsOf, until } from '../helper.ts'
import { cart, customer, installHookApp, shop, startAppServer } from '../plugins/checkout-hooks/fixtures.ts'
import { ask, DAY_MS, decide, merchantWith, pricedApp, usd } from '../plugins/billing/helpers.ts'
import { TestClock } from '../clock.ts'
import { eq } from 'drizzle-orm'
import { bulkExports } from '../../server/db/schema/index.ts'

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])

/** Every table of the service's schema with its row count and a digest of its rows. */
async function fingerprint (database: Database): Promise<Record<string, string>> {
  const { rows: tables } = await database.executeSql("select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1")
  const result: Record<string, string> = {}
  for (const { name } of tables as Array<{ name: string }>) {
    const { rows } = await database.executeSql(`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`)
    result[name] = `${String(rows[0].n)}:${String(rows[0].digest)}`
  }
  return result
}

/**
 * Puts rows in every table through the platform's own flows: sample data, an app with media, hooks and a webhook, an
 * order, a promo code, a product picture, an app check run, a failed sign-in, a CLI login and a relayed call, a logout,
 * and an app's charges: a subscription replaced during its trial, usage, and the invoice of a cycle (the clock moved); a review of the app.
 */
async function fill (t: Test, app: App, clock: TestClock): Promise<void> {
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  // the demo's sample catalogue, orders, reviews and pages
  await app.db.transaction(async (tx) => { await portsOf(app).commerce.in(tx).seedSample(merchant.businessId, app.clock.now()) })
  const appServer = await startAppServer(t, {
    '/base/methods': () => ({ json: { methods: [{ id: 'qr', name: 'QR pay' }] } }),
    '/base/pay': ({ body }) => ({ json: { paymentUrl: `https://pay.example.com/${String(body.data.orderId)}` } }),
    '/base/events': () => ({ json: {} })
  })
  const hooks = [{ hookPoint: 'checkout.payment_methods', url: '/methods' }, { hookPoint: 'checkout.create_payment', url: '/pay' }]
  const { appId, installed } = await installHookApp(app, developer, merchant, appServer.url, hooks, ['write_payments', 'read_orders', 'read_business'])
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'icon.png')
  t.equal((await fetch(`${base}/developer/apps/${appId}/media?kind=icon`, { method: 'POST', headers: developer.auth, body: form })).status, 201)
  // the approval is a decision, so the developer may answer in the review thread
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/review-replies`, headers: developer.auth, payload: { body: 'Thanks for the review.' } })).statusCode, 201)
  t.equal((await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: `${appServer.url}/base/events`, events: ['order.created'] } })).statusCode, 201)
  t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 200)
  const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: `${installed.installationId}:qr` } })
  t.equal(placed.statusCode, 201, placed.body)
  await portsOf(app).webhooks.delivery.idle()
  await portsOf(app).checkoutHooks.flush()
  // a bulk export of the orders, its file in the database (DESIGN §25)
  const exported = await app.inject({ method: 'POST', url: '/app-api/bulk-exports', headers: installed.auth, payload: { resource: 'orders' } })
  t.equal(exported.statusCode, 202, exported.body)
  // read from the database: polling the App API would spend the installation's 60 requests a minute
  const exportId = exported.json().id as string
  await until(async () => (await app.db.select({ status: bulkExports.status }).from(bulkExports).where(eq(bulkExports.id, exportId)))[0]?.status,
    (status) => status === 'COMPLETED')
  t.equal((await app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: merchant.auth, payload: { code: 'SPRING10', percentOff: 10 } })).statusCode, 201)
  // a staff member who joined by invitation, and an invitation still pending (DESIGN §24)
  await addMember(app, merchant, ['orders'])
  t.equal((await app.inject({ method: 'POST', url: '/merchant/staff', headers: merchant.auth, payload: { email: 'later@example.com', permissions: ['products'] } })).statusCode, 201)
  const picture = new FormData()
  picture.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'pizza.png')
  t.equal((await fetch(`${base}/merchant/products/${pizza.id as string}/image`, { method: 'POST', headers: merchant.auth, body: picture })).status, 200)
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: developer.auth })).statusCode, 202)
  t.equal((await app.inject({ method: 'POST', url: '/auth/login', payload: { email: merchant.email, password: 'not-the-password' } })).statusCode, 401)
  // a CLI login (device flow and its token) and a relayed hook call of a listen session, left connected
  const device = (await app.inject({ method: 'POST', url: '/oauth/device_authorization', payload: { client_id: 'app-platform-cli' } })).json()
  t.equal((await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: device.user_code, decision: 'approve' } })).statusCode, 204)
  const cliToken = await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: 'app-platform-cli' } })
  t.equal(cliToken.statusCode, 200)
  await portsOf(app).relay.connect(appId, developer.businessId, (row) => { void portsOf(app).relay.answer(appId, row.id, { status: 200, headers: {}, body: '{}' }) })
  t.match(await portsOf(app).relay.call({ appId, businessId: developer.businessId, kind: 'webhook', name: 'order.created', url: 'https://app.example/webhooks', headers: {}, body: '{}', timeoutMs: 10_000 }), { answered: true })
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: developer.auth })).statusCode, 204)
  // last, since it moves the clock a month on (past every session's expiry)
  const priced = await pricedApp(app)
  const { installed: paying } = await merchantWith(app, priced, merchant)
  const basic = await ask(app, paying, 'subscriptions', 'basic')
  await decide(app, merchant, basic.id)
  const usage = { description: 'Labels', price: usd(120), idempotencyKey: 'labels-1' }
  t.equal((await app.inject({ method: 'POST', url: `/app-api/billing/subscriptions/${basic.id as string}/usage-records`, headers: paying.auth, payload: usage })).statusCode, 201)
  clock.advance(DAY_MS)
  await decide(app, merchant, (await ask(app, paying, 'subscriptions', 'pro')).id)
  clock.advance(30 * DAY_MS)
  t.equal((await portsOf(app).billing.runDue()).invoices.length, 1)
  // the merchant's installation is a month old: it reviews the app (through the port, its session having expired), the developer answers
  const rated = await portsOf(app).appReviews.put(merchant.businessId, merchant.userId, priced.appId, { rating: 4, body: 'Fair prices' })
  await portsOf(app).appReviews.reply(priced.appId, rated.id, 'Thank you')
}

/** The permission bits of `path`, as `ls -l` shows them in octal. */
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

/** As `npm start` configures itself on an embedded DATA_DIR: the generated secrets are files there. */
const configFor = (dataDir: string) => loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false', AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: '100000', DATA_DIR: dataDir, ...REVIEWER_ENV })

t.test('backup and restore of the embedded database', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'platform-backup-test-'))
  t.teardown(() => { rmSync(root, { recursive: true, force: true }) })
  const dataDir = join(root, 'data')
  const file = join(root, 'backups', 'platform.tar.gz')

  const clock = new TestClock()
  const app = await buildApp({ config: configFor(dataDir), clock })
  await app.ready()
  await fill(t, app, clock)
  await app.close()
  // the stopped server's database, held open here as a running server would hold it
  const held = await openDatabase({ databaseUrl: null, dataDir })
  const before = await fingerprint(held)
  t.same(Object.entries(before).filter(([, value]) => value.startsWith('0:')).map(([name]) => name), [], 'every table has rows')

  t.test('refused while a server has the database open', async (t) => {
    await t.rejects(backup(dataDir, file), DataDirInUseError)
    await t.rejects(restore(dataDir, file), DataDirInUseError)
    await t.rejects(openDatabase({ databaseUrl: null, dataDir }), /in use by process/, 'and so is a second server on the same DATA_DIR')
  })
  t.test('stopped, the round trip keeps every row of every table, and the secrets', async (t) => {
    await held.close()
    // the usual umask, which let the backup and the restored secrets be world-readable
    const umask = process.umask(0o022)
    t.teardown(() => { process.umask(umask) })
    const manifest = await backup(dataDir, file)
    t.ok(existsSync(file))
    t.equal(modeOf(file), '600', 'the backup holds the secrets: only its owner may read it')
    t.ok(manifest.files.length >= 2, `the secrets beside the database are in it: ${manifest.files.join(', ')}`)
    t.ok(manifest.files.includes('jwt-secret') && manifest.files.includes('encryption-key'))
    const restoredDir = join(root, 'restored')
    await restore(restoredDir, file)
    for (const name of manifest.files) t.same(readFileSync(join(restoredDir, name)), readFileSync(join(dataDir, name)), `${name} restored`)
    t.equal(modeOf(restoredDir), '700', 'the restored DATA_DIR is its owner\'s only')
    const modes = readdirSync(restoredDir, { recursive: true }).map(String).map((path) => `${path} ${modeOf(join(restoredDir, path))}`)
    t.same(modes.filter((line) => !/ (600|700)$/.test(line)), [], 'every restored file is 0600, every folder 0700')
    const restored = await openDatabase({ databaseUrl: null, dataDir: restoredDir })
    const after = await fingerprint(restored)
    t.same(Object.keys(after).filter((name) => after[name] !== before[name]), [], 'no table differs')
    t.equal(await restored.pendingMigrations(), 0)
    await restored.close()
    const again = await buildApp({ config: configFor(restoredDir) })
    const login = await again.inject({ method: 'POST', url: '/auth/login', payload: { email: REVIEWER_ENV.REVIEWER_EMAIL, password: REVIEWER_ENV.REVIEWER_PASSWORD } })
    await again.close()
    t.equal(login.statusCode, 200, `a restored server signs people in: ${login.body}`)
  })
  t.test('restore refuses a DATA_DIR that holds data, and keeps it aside with --force', async (t) => {
    await t.rejects(restore(dataDir, file), /is not empty/)
    const { keptAside } = await restore(dataDir, file, { force: true })
    t.ok(keptAside !== null && existsSync(join(keptAside, 'pgdata')), 'the previous data is kept')
  })
  t.test('restore refuses what is not a backup', async (t) => {
    const junk = join(root, 'junk.tar.gz')
    writeFileSync(junk, 'not an archive')
    await t.rejects(restore(join(root, 'empty-1'), junk), /not a readable backup archive/)
    await t.rejects(restore(join(root, 'empty-2'), join(root, 'missing.tar.gz')), /no such file/)
  })
  t.test('npm run backup / restore: usage, and PostgreSQL is pg_dump\'s job', async (t) => {
    const run = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, ['--import', 'tsx', 'server/backup.ts', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', DATA_DIR: join(root, 'restored'), ...env } })
    t.equal(run([]).status, 2)
    t.match(run(['restore', file, '--yes']).stderr, /usage/)
    t.match(run(['backup', join(root, 'pg.tar.gz')], { DATABASE_URL: 'postgres://127.0.0.1/x', JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'a'.repeat(64) }).stderr, /pg_dump/)
    const cli = run(['backup', join(root, 'cli.tar.gz')])
    t.equal(cli.status, 0, cli.stderr)
    t.match(cli.stdout, /backed up/)
    const busy = run(['restore', join(root, 'cli.tar.gz')])
    t.equal(busy.status, 1, busy.stderr)
    t.match(busy.stderr, /is not empty/)
    const fresh = join(root, 'not-yet', 'data')
    const into = run(['restore', join(root, 'cli.tar.gz')], { DATA_DIR: fresh })
    t.equal(into.status, 0, `a DATA_DIR that does not exist yet needs no --force: ${into.stderr}`)
    t.match(into.stdout, /restored/)
    t.same(readFileSync(join(fresh, 'jwt-secret')), readFileSync(join(root, 'restored', 'jwt-secret')), "the backup's secret, not one made by loading the config")
  })
})
