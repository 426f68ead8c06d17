import t from 'tap'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, createApp, listen, publishApp, registerUser, REVIEWER_ENV, portsOf } from '../helper.ts'
import { freePort } from '../process.ts'
import { cliHome, cliLogin, REFERENCE_SCOPES, runCli, useReferenceManifest } from './helper.ts'

t.test('the app-platform CLI against a running platform', async (t) => {
  const app = await build(t, { env: { DEVICE_POLL_INTERVAL_SECONDS: '1', ...REVIEWER_ENV } })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const home = cliHome(t)
  const cli = (args: string[], cwd?: string) => runCli([...args, '--server', base], { home, cwd })

  t.test('usage problems print the usage and exit 2', async (t) => {
    const unknown = await cli(['frobnicate'])
    t.equal(unknown.code, 2)
    t.match(unknown.stderr, /unknown command 'frobnicate'[\s\S]*Usage: app-platform/)
    const flag = await cli(['apps', 'list', '--colour'])
    t.equal(flag.code, 2)
    t.match(flag.stderr, /unknown option '--colour'/)
  })

  t.test('a platform that cannot be reached is named, exit 1', async (t) => {
    const closed = `http://127.0.0.1:${await freePort()}`
    const result = await runCli(['login', '--server', closed], { home })
    t.equal(result.code, 1)
    t.match(result.stderr, `Could not reach the platform at ${closed} (ECONNREFUSED) while calling /oauth/device_authorization`)
  })

  t.test('commands before login ask for one', async (t) => {
    const result = await cli(['whoami'])
    t.equal(result.code, 1)
    t.match(result.stderr, /Not logged in to .*: run `app-platform login` first/)
  })

  t.test('login: the device flow, a token stored 0600 under XDG_CONFIG_HOME', async (t) => {
    const login = await cliLogin(app, base, home, developer)
    t.equal(login.code, 0, login.stderr)
    const [shown, done] = login.stdout.trim().split('\n').map((line) => JSON.parse(line))
    t.match(shown, { userCode: /^[B-Z]{4}-[B-Z]{4}$/, verificationUri: /\/device$/, verificationUriComplete: /user_code=/, expiresIn: 900 })
    t.match(done, { loggedIn: true, email: developer.email })
    const file = join(home, 'app-platform', 'credentials.json')
    t.equal(statSync(file).mode & 0o777, 0o600)
    t.match(JSON.parse(readFileSync(file, 'utf8'))[base], { token: /^fbcli_/, email: developer.email })
    const whoami = await cli(['whoami', '--json'])
    t.equal(whoami.code, 0)
    t.match(JSON.parse(whoami.stdout), { email: developer.email, token: { name: /app-platform CLI on / } })
  })

  const dir = join(home, 'my-shop-app')
  let appId = ''

  t.test('app init: a standalone draft on the platform\'s SDK tarball, port 8787, the scopes asked for, credentials in .env', async (t) => {
    const unscoped = await cli(['app', 'init', join(home, 'unscoped'), '--json'])
    t.equal(unscoped.code, 2, 'not at a terminal, --scopes is needed')
    t.match(unscoped.stdout, /--scopes/)
    const result = await cli(['app', 'init', dir, '--json', '--scopes', REFERENCE_SCOPES])
    t.equal(result.code, 0, result.stderr)
    const created = JSON.parse(result.stdout)
    appId = created.appId
    t.match(created, { status: 'DRAFT', slug: /^my-shop-app-[0-9a-f]{4}$/, port: 8787 })
    const env = readFileSync(join(dir, '.env'), 'utf8')
    t.match(env, new RegExp(`CLIENT_ID=${created.clientId as string}\\nCLIENT_SECRET=fbcs_`))
    t.match(env, /\nPORT=8787\n/)
    t.equal(statSync(join(dir, '.env')).mode & 0o777, 0o600)
    t.ok(existsSync(join(dir, 'server.js')), 'the app\'s server')
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    t.match(pkg.dependencies['@app-platform/sdk'], new RegExp(`^${base}/downloads/app-platform-sdk-\\d+\\.\\d+\\.\\d+\\S*\\.tgz$`), 'the SDK from the platform\'s URL, never file:')
    t.match(JSON.parse(readFileSync(join(dir, 'app-platform.json'), 'utf8')), {
      appId, name: 'my-shop-app', category: 'other', scopes: REFERENCE_SCOPES.split(','), appUrl: 'http://localhost:8787/', redirectUrl: 'http://localhost:8787/oauth/callback',
      webhookUrl: 'http://localhost:8787/webhooks', webhookEvents: [], apiVersion: null, signatureScheme: 'spec', manifest: {}
    })
    useReferenceManifest(dir)
    const list = JSON.parse((await cli(['apps', 'list', '--json'])).stdout)
    t.match(list, [{ id: appId, status: 'DRAFT' }])
    t.equal((await cli(['app', 'init', dir])).code, 1, 'refuses a folder that is not empty')
  })

  t.test('app push: shows the settings and manifest diffs, asks (--yes when not at a terminal), then saves both', async (t) => {
    const unconfirmed = await cli(['app', 'push'], dir)
    t.equal(unconfirmed.code, 1)
    t.match(unconfirmed.stdout, /Settings:\n~ webhookEvents: \[\] → \["order\.created"/)
    t.match(unconfirmed.stdout, /\+ hook checkout\.shipping_rates/)
    t.match(unconfirmed.stderr, /confirm with --yes/)
    t.same((await app.inject({ method: 'GET', url: `/developer/apps/${appId}/extensions`, headers: developer.auth })).json().data, [], 'nothing saved')
    const pushed = await cli(['app', 'push', '--yes', '--json'], dir)
    t.equal(pushed.code, 0, pushed.stderr)
    t.ok(JSON.parse(pushed.stdout).sync.created.some((ref: { kind: string, key: string }) => ref.kind === 'hook' && ref.key === 'checkout.shipping_rates'))
    t.ok((await app.inject({ method: 'GET', url: `/developer/apps/${appId}/extensions`, headers: developer.auth })).json().data.length > 5)
    t.match((await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json().webhookEvents, ['order.created'], 'the settings saved')
  })

  t.test('a broken app-platform.json: every problem with its JSON path, nothing changed', async (t) => {
    const file = join(dir, 'app-platform.json')
    const good = readFileSync(file, 'utf8')
    const before = (await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json()
    writeFileSync(file, JSON.stringify({ ...JSON.parse(good), name: '', scopes: ['read_orders', 'read_minds'], webhookUrl: 'ftp://x', signatureScheme: 'rot13', colour: 'blue' }))
    const result = await cli(['app', 'push', '--yes'], dir)
    t.equal(result.code, 1)
    for (const path of ['/name', '/scopes/1', '/webhookUrl', '/signatureScheme', '/colour']) t.match(result.stderr, new RegExp(`\\n  ${path}: `), path)
    t.match(result.stderr, /Nothing was changed/)
    t.same((await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json(), before)
    writeFileSync(file, good)
  })

  t.test('app push of an invalid manifest prints the platform\'s problems with their paths and changes nothing', async (t) => {
    const file = join(dir, 'app-platform.json')
    const good = readFileSync(file, 'utf8')
    const broken = JSON.parse(good)
    broken.manifest.hooks[0].timeout = 5
    writeFileSync(file, JSON.stringify(broken))
    const before = (await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json().manifest
    const result = await cli(['app', 'push', '--yes'], dir)
    t.equal(result.code, 1)
    t.match(result.stderr, /\/hooks\/0\/timeout: /)
    t.match(result.stderr, /Nothing was changed/)
    t.same((await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json().manifest, before)
    writeFileSync(file, '{ not json')
    const unreadable = await cli(['app', 'push', '--yes'], dir)
    t.equal(unreadable.code, 1)
    t.match(unreadable.stderr, /app-platform\.json is not valid JSON/)
    writeFileSync(file, good)
  })

  t.test('app push takes the pricing plans: the file\'s shape checked here, the plans\' rules by the platform, each problem at its path', async (t) => {
    const file = join(dir, 'app-platform.json')
    const good = readFileSync(file, 'utf8')
    const plan = { id: 'pro', name: 'Pro', kind: 'RECURRING', price: { amount: 1900, currency: 'USD' }, interval: 'EVERY_30_DAYS' }
    const current = async () => (await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json()

    writeFileSync(file, JSON.stringify({ ...JSON.parse(good), pricing: [plan] }))
    const misshapen = await cli(['app', 'push', '--yes'], dir)
    t.equal(misshapen.code, 1)
    t.match(misshapen.stderr, /\n {2}\/pricing: must be an object with a list of plans/)

    const before = await current()
    writeFileSync(file, JSON.stringify({ ...JSON.parse(good), pricing: { plans: [{ ...plan, price: { amount: 1900, currency: 'EUR' } }] } }))
    const refused = await cli(['app', 'push', '--yes'], dir)
    t.equal(refused.code, 1)
    t.match(refused.stderr, /\/pricing\/plans\/0\/price\/currency: must be USD/)
    t.same(await current(), before, 'nothing changed')

    writeFileSync(file, JSON.stringify({ ...JSON.parse(good), pricing: { plans: [plan] } }))
    const pushed = await cli(['app', 'push', '--yes', '--json'], dir)
    t.equal(pushed.code, 0, pushed.stderr)
    t.same(JSON.parse(pushed.stdout).settings, ['pricing'])
    t.same((await current()).pricing, { plans: [plan] })
    const again = await cli(['app', 'push', '--yes', '--json'], dir)
    t.same(JSON.parse(again.stdout).settings, [], 'the same plans, in the platform\'s key order, are no change')
    writeFileSync(file, good)
  })

  t.test('app pull writes the platform\'s settings and manifest', async (t) => {
    const result = await cli(['app', 'pull', '--json'], dir)
    t.equal(result.code, 0, result.stderr)
    const saved = (await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json()
    t.same(JSON.parse(readFileSync(join(dir, 'app-platform.json'), 'utf8')), {
      appId, name: saved.name, description: saved.description, category: saved.category, scopes: saved.scopes, appUrl: saved.appUrl,
      redirectUrl: saved.redirectUrl, webhookUrl: saved.webhookUrl, webhookEvents: saved.webhookEvents, apiVersion: saved.apiVersion ?? null,
      signatureScheme: saved.webhookSignatureScheme, pricing: saved.pricing, manifest: saved.manifest
    })
  })

  t.test('app checks runs the platform\'s checks and prints each outcome; app submit sends the app to review', async (t) => {
    t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/test-install`, headers: developer.auth })).statusCode, 201)
    const checks = await cli(['app', 'checks', '--json'], dir)
    const run = JSON.parse(checks.stdout)
    t.match(run, { status: /^(PASSED|WARNINGS|FAILED)$/, results: Array })
    t.ok(run.results.length > 5)
    t.equal(checks.code, run.status === 'FAILED' ? 1 : 0, 'a failed run fails the command')
    const submitted = await cli(['app', 'submit', '--json'], dir)
    t.equal(submitted.code, 0, submitted.stderr)
    t.match(JSON.parse(submitted.stdout), { appId, status: 'PENDING_REVIEW' })
    await portsOf(app).appChecks.idle()
  })

  t.test('app push of an added scope on an approved app: the app goes to review, as in the portal', async (t) => {
    const created = await createApp(app, developer, { scopes: ['read_orders'] })
    await publishApp(app, developer, created.app.id)
    const folder = join(home, 'approved-app')
    t.equal((await cli(['app', 'pull', '--app', created.app.id, '--dir', folder])).code, 0)
    const file = join(folder, 'app-platform.json')
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), scopes: ['read_orders', 'read_products'] }))
    const pushed = await cli(['app', 'push', '--yes', '--json', '--dir', folder])
    t.equal(pushed.code, 0, pushed.stderr)
    t.match(JSON.parse(pushed.stdout), { settings: ['scopes'], status: 'DRAFT', needsReview: true })
    t.match((await app.inject({ method: 'GET', url: `/developer/apps/${created.app.id}`, headers: developer.auth })).json(), { status: 'DRAFT', isPublished: true })
  })

  t.test('another developer\'s app is not found', async (t) => {
    const other = await registerUser(app, 'DEVELOPER')
    const created = await createApp(app, other)
    const result = await cli(['app', 'pull', '--app', created.app.id, '--dir', home])
    t.equal(result.code, 1)
    t.match(result.stderr, /App not found/)
  })

  t.test('a revoked token asks to log in again; logout forgets the token', async (t) => {
    const second = cliHome(t)
    t.equal((await cliLogin(app, base, second, developer)).code, 0)
    const tokens = (await app.inject({ method: 'GET', url: '/developer/cli-tokens', headers: developer.auth })).json().data
    await app.inject({ method: 'DELETE', url: `/developer/cli-tokens/${tokens[0].id as string}`, headers: developer.auth })
    const refused = await runCli(['whoami', '--server', base], { home: second })
    t.equal(refused.code, 1)
    t.match(refused.stderr, /expired or was revoked: run `app-platform login` again/)

    const out = await cli(['logout', '--json'])
    t.equal(out.code, 0)
    t.match(JSON.parse(out.stdout), { loggedOut: true, revoked: true })
    t.same(JSON.parse(readFileSync(join(home, 'app-platform', 'credentials.json'), 'utf8')), {})
    t.same((await app.inject({ method: 'GET', url: '/developer/cli-tokens', headers: developer.auth })).json().data, [], 'no live token is left')
  })
})
