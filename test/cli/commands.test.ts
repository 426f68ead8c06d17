import t from 'tap'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, createApp, listen, registerUser } from '../helper.ts'
import { freePort } from '../process.ts'
import { cliHome, cliLogin, runCli } from './helper.ts'

t.test('the app-platform CLI against a running platform', async (t) => {
  const app = await build(t, { env: { DEVICE_POLL_INTERVAL_SECONDS: '1' } })
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

  t.test('app init: a draft from the template, credentials in .env', async (t) => {
    const result = await cli(['app', 'init', dir, '--json'])
    t.equal(result.code, 0, result.stderr)
    const created = JSON.parse(result.stdout)
    appId = created.appId
    t.match(created, { status: 'DRAFT', slug: /^my-shop-app-[0-9a-f]{4}$/ })
    const env = readFileSync(join(dir, '.env'), 'utf8')
    t.match(env, new RegExp(`CLIENT_ID=${created.clientId as string}\\nCLIENT_SECRET=fbcs_`))
    t.equal(statSync(join(dir, '.env')).mode & 0o777, 0o600)
    t.ok(existsSync(join(dir, 'src', 'app.ts')), 'the reference app\'s source')
    t.notOk(existsSync(join(dir, 'test')), 'not its tests')
    t.equal(JSON.parse(readFileSync(join(dir, 'app-platform.json'), 'utf8')).appId, appId)
    const list = JSON.parse((await cli(['apps', 'list', '--json'])).stdout)
    t.match(list, [{ id: appId, status: 'DRAFT' }])
    t.equal((await cli(['app', 'init', dir])).code, 1, 'refuses a folder that is not empty')
  })

  t.test('app push: shows the diff, asks (--yes when not at a terminal), then saves', async (t) => {
    const unconfirmed = await cli(['app', 'push'], dir)
    t.equal(unconfirmed.code, 1)
    t.match(unconfirmed.stdout, /\+ hook checkout\.shipping_rates/)
    t.match(unconfirmed.stderr, /confirm with --yes/)
    t.same((await app.inject({ method: 'GET', url: `/developer/apps/${appId}/extensions`, headers: developer.auth })).json().data, [], 'nothing saved')
    const pushed = await cli(['app', 'push', '--yes', '--json'], dir)
    t.equal(pushed.code, 0, pushed.stderr)
    t.ok(JSON.parse(pushed.stdout).sync.created.some((ref: { kind: string, key: string }) => ref.kind === 'hook' && ref.key === 'checkout.shipping_rates'))
    t.ok((await app.inject({ method: 'GET', url: `/developer/apps/${appId}/extensions`, headers: developer.auth })).json().data.length > 5)
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

  t.test('app pull writes the platform\'s manifest', async (t) => {
    const result = await cli(['app', 'pull', '--json'], dir)
    t.equal(result.code, 0, result.stderr)
    const saved = (await app.inject({ method: 'GET', url: `/developer/apps/${appId}`, headers: developer.auth })).json().manifest
    t.same(JSON.parse(readFileSync(join(dir, 'app-platform.json'), 'utf8')), { appId, manifest: saved })
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
    await app.appChecks.idle()
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
