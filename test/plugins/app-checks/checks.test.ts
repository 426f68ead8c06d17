import t from 'tap'
import { build, registerUser } from '../../helper.ts'
import { outcomes, receiverApp, runChecks } from './fixtures.ts'

// each check against a real receiver on 127.0.0.1 that does it right, then broken one way at a time
t.test('POST /developer/apps/:appId/checks against a receiver', async (t) => {
  const app = await build(t)
  const { receiver, developer, appId, app: created } = await receiverApp(t, app)

  t.test('a well-behaved app passes every check (the bridge is skipped: no browser configured)', async (t) => {
    const run = await runChecks(app, developer, appId)
    t.same(outcomes(run), {
      'oauth.redirect': 'PASS',
      'install.app_url': 'PASS',
      'webhook.rejects_bad_signature': 'PASS',
      'webhook.accepts_test': 'PASS',
      'hooks.checkout.shipping_rates': 'PASS',
      'blocks.banner.frameable': 'PASS',
      'embeds.widget.script': 'PASS',
      'admin_pages.home.frameable': 'PASS',
      'scopes.used': 'PASS',
      'webhook.data_erasure': 'PASS',
      'admin_pages.home.bridge': 'SKIP'
    })
    t.equal(run.status, 'PASSED')
    t.equal(run.version, created.version)
    t.same(run.progress, { done: 11, total: 11 })
    t.ok(run.finishedAt !== null)
    const accepts = run.results.find((r) => r.id === 'webhook.accepts_test')
    t.match(accepts, { fix: null, evidence: [{ request: /^POST http:\/\/127\.0\.0\.1:\d+\/webhooks \(webhook\.test\)$/, status: 200, headers: { 'content-type': 'application/json' }, body: '{"received":true}', durationMs: Number, at: String }] })
    t.match(run.results.find((r) => r.id === 'admin_pages.home.bridge'), { detail: /CHECKS_BROWSER_PATH/ })
    const erasure = receiver.received.filter((r) => r.event === 'business.data_erasure')
    t.equal(erasure.length, 1, 'one signed erasure was sent')
    t.ok(receiver.received.findIndex((r) => r.event === 'business.data_erasure') > receiver.received.findIndex((r) => r.path === '/webhooks/hooks/shipping'), 'the erasure goes last')
  })

  const broken = async (fault: keyof typeof receiver.faults, check: string, outcome: string, detail: RegExp, fix: RegExp) => {
    t.test(`${check} catches ${fault}`, async (t) => {
      receiver.faults = { [fault]: true }
      t.teardown(() => { receiver.faults = {} })
      const run = await runChecks(app, developer, appId)
      const result = run.results.find((r) => r.id === check)
      t.match(result, { outcome, detail, fix })
      t.ok((result?.evidence.length ?? 0) > 0, 'with its evidence')
      t.equal(run.results[0].id, check, 'the failure comes first')
      t.same(run.results.filter((r) => r.outcome === 'FAIL').map((r) => r.id), [check], 'nothing else fails')
      t.equal(run.status, 'FAILED')
    })
  }
  await broken('acceptsForgedSignatures', 'webhook.rejects_bad_signature', 'FAIL', /Expected 401 for both, but a forged signature got HTTP 200 and a stale timestamp got HTTP 200/, /answer 401/)
  await broken('erasureAnswers500', 'webhook.data_erasure', 'FAIL', /business\.data_erasure got HTTP 500/, /answer business\.data_erasure with a 2xx/)
  await broken('blockDeniesFraming', 'blocks.banner.frameable', 'FAIL', /cannot frame it: it sends X-Frame-Options: DENY/, /Drop X-Frame-Options/)
  await broken('slowHook', 'hooks.checkout.shipping_rates', 'FAIL', /No answer within the hook's 1000 ms timeout/, /within 1000 ms/)
  await broken('wrongHookShape', 'hooks.checkout.shipping_rates', 'FAIL', /The answer is not valid: answer does not match checkout\.shipping_rates: \/fee/, /JSON in the shape/)
  await broken('scriptAsHtml', 'embeds.widget.script', 'FAIL', /served as text\/html/, /Content-Type: text\/javascript/)
  await broken('wrongClientId', 'install.app_url', 'FAIL', /client_id is "app_someone_else", not the app's [0-9a-f]{32}$/, /^Send this app's client id, [0-9a-f]{32}, as client_id/)
  await broken('noPkce', 'install.app_url', 'FAIL', /no PKCE code_challenge; code_challenge_method is not S256$/, /^Add a PKCE code_challenge .* Send code_challenge_method=S256/)

  t.test('install.app_url advises per cause: a wrong client_id is not a PKCE problem', async (t) => {
    receiver.faults = { wrongClientId: true }
    t.teardown(() => { receiver.faults = {} })
    const result = (await runChecks(app, developer, appId)).results.find((r) => r.id === 'install.app_url')
    t.notMatch(result?.fix, /PKCE|state/, 'no advice about PKCE or state')
    t.match(result?.fix, created.clientId, 'it names the client id to send')
  })

  t.test('scopes.used warns about a scope the sandbox never exercised, and an App API call counts as a use', async (t) => {
    const other = await receiverApp(t, app, ['read_orders', 'write_shipping', 'read_business'])
    const run = await runChecks(app, other.developer, other.appId)
    t.match(run.results[0], { id: 'scopes.used', outcome: 'WARN', detail: /may be unnecessary: read_business$/, fix: /Drop read_business/ })
    t.equal(run.status, 'WARNINGS')

    const token = (await app.inject({ method: 'POST', url: `/developer/apps/${other.appId}/test-install`, headers: other.developer.auth })).json()
    other.receiver.secret = token.webhookSecret
    t.equal((await app.inject({ url: '/app-api/business', headers: { authorization: `Bearer ${token.accessToken as string}` } })).statusCode, 200)
    const again = await runChecks(app, other.developer, other.appId)
    t.equal(again.status, 'PASSED', 'read_business was used by the new sandbox installation')
  })

  t.test('history: GET /developer/apps/:appId/checks lists the runs of each version, newest first', async (t) => {
    const list = await app.inject({ url: `/developer/apps/${appId}/checks?limit=3`, headers: developer.auth })
    t.equal(list.statusCode, 200)
    const body = list.json()
    t.equal(body.total, 10)
    t.equal(body.data.length, 3)
    t.notOk('results' in body.data[0], 'summaries only')
    t.match(body.data[0], { appId, version: created.version, trigger: 'developer', status: 'FAILED', progress: { done: 11, total: 11 } })
    t.equal((await app.inject({ url: `/developer/apps/${appId}/checks?version=9.9.9`, headers: developer.auth })).json().total, 0)
  })

  t.test("another developer's app and run are 404; a reviewer cannot start a run", async (t) => {
    const stranger = await registerUser(app, 'DEVELOPER')
    const runId = (await app.inject({ url: `/developer/apps/${appId}/checks`, headers: developer.auth })).json().data[0].id
    t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: stranger.auth })).statusCode, 404)
    t.equal((await app.inject({ url: `/developer/apps/${appId}/checks/${runId as string}`, headers: stranger.auth })).statusCode, 404)
    t.equal((await app.inject({ url: `/developer/apps/${appId}/checks/chk_unknown`, headers: developer.auth })).statusCode, 404)
    t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks` })).statusCode, 401)
  })
})
