import { createServer } from 'node:net'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { eq } from 'drizzle-orm'
import { checkRuns } from '../../../server/db/schema/index.ts'
import { createAppChecks } from '../../../plugins/app-checks/service.ts'
import { fail, pass, INTERNAL_ERROR, RUN_GRACE_MS, type Check } from '../../../plugins/app-checks/runner.ts'
import type { CheckContext } from '../../../plugins/app-checks/context.ts'
import { build, createApp, gate, loginReviewer, registerUser, REVIEWER_ENV, portsOf } from '../../helper.ts'
import { receiverApp, runChecks } from './fixtures.ts'

t.test('an app whose URLs now resolve to an internal address fails with the policy\'s reason, and nothing is connected to', async (t) => {
  // a TCP listener on loopback counts connection attempts: the app's host will resolve to it
  let connections = 0
  const trap = createServer((socket) => { connections += 1; socket.destroy() })
  trap.listen(0, '127.0.0.1')
  await once(trap, 'listening')
  t.teardown(() => trap.close())
  const port = (trap.address() as AddressInfo).port
  const names: Record<string, string[]> = { 'app.checks.test': ['93.184.215.14'] }
  const app = await build(t, { env: { PLATFORM_ENV: 'production' }, outbound: { resolve: async (host) => names[host] ?? [] } })
  const developer = await registerUser(app, 'DEVELOPER')
  const base = `https://app.checks.test:${port}`
  const { app: created } = await createApp(app, developer, {
    appUrl: `${base}/app`, redirectUrl: `${base}/callback`, webhookUrl: `${base}/webhooks`, scopes: ['write_shipping']
  })
  const manifest = await app.inject({
    method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth,
    payload: { manifest: { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/hooks/shipping' }], blocks: [{ blockType: 'b', name: 'B', renderUrl: `${base}/block` }] } }
  })
  t.equal(manifest.statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).statusCode, 201)
  // the app's DNS now answers with an internal address
  names['app.checks.test'] = ['127.0.0.1']

  const run = await runChecks(app, developer, created.id)
  const refused = /must not point at a private address or any other special-use range/
  for (const id of ['oauth.redirect', 'install.app_url', 'webhook.rejects_bad_signature', 'webhook.accepts_test', 'webhook.data_erasure', 'hooks.checkout.shipping_rates', 'blocks.b.frameable']) {
    const result = run.results.find((r) => r.id === id)
    t.equal(result?.outcome, 'FAIL', id)
    t.match(result?.detail, refused, `${id}: the policy's reason`)
  }
  t.match(run.results.find((r) => r.id === 'webhook.accepts_test')?.evidence, [{ status: null, headers: {}, body: '' }], 'evidence of a call never made')
  t.equal(run.status, 'FAILED')
  t.equal(connections, 0, 'no connection attempt')
})

t.test('at most one run per app: 409 while one is RUNNING', async (t) => {
  const app = await build(t)
  const { receiver, developer, appId } = await receiverApp(t, app)
  const held = gate()
  receiver.faults = { holdWebhooks: held.opened }
  const first = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: developer.auth })
  t.equal(first.statusCode, 202)
  const running = await app.inject({ url: `/developer/apps/${appId}/checks/${first.json().checkRunId as string}`, headers: developer.auth })
  t.match(running.json(), { status: 'RUNNING', finishedAt: null, progress: { total: 11 } })
  const second = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: developer.auth })
  t.equal(second.statusCode, 409)
  t.match(second.json(), { statusCode: 409, error: 'Conflict', message: /already running/ })
  held.open()
  await portsOf(app).appChecks.idle()
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: developer.auth })).statusCode, 202, 'a new run once it finished')
  await portsOf(app).appChecks.idle()
})

t.test('a check that crashes is FAIL "internal error", one that hangs is cut, and the run finishes within its budget', async (t) => {
  const app = await build(t)
  const { developer, app: created } = await receiverApp(t, app)
  const crashing: Check<CheckContext> = { id: 'crashes', title: 'Crashes', timeoutMs: 1000, run: async () => { throw new Error('boom: a bug in a check') } }
  const hanging: Check<CheckContext> = { id: 'hangs', title: 'Hangs', timeoutMs: 200, run: async () => await new Promise(() => {}) }
  const fine: Check<CheckContext> = { id: 'fine', title: 'Fine', timeoutMs: 1000, run: async () => pass('ok') }
  const service = createAppChecks({
    db: app.db, log: app.log, fastify: app, ...portsOf(app), encryptionKey: app.config.encryptionKey, webhookTimeoutMs: 1000, browserPath: null,
    plan: () => [crashing, hanging, fine]
  })
  t.teardown(() => service.close())
  const row = await portsOf(app).apps.ownedApp(developer.userId, created.id)
  const id = await service.start(row, { businessId: developer.businessId, userId: developer.userId }, 'developer')
  await service.idle()
  const run = await service.get(created.id, id)
  t.match(run.results, [
    { id: 'crashes', outcome: 'FAIL', detail: INTERNAL_ERROR, fix: String },
    { id: 'hangs', outcome: 'FAIL', detail: 'Did not finish within 200 ms' },
    { id: 'fine', outcome: 'PASS' }
  ])
  t.notMatch(JSON.stringify(run), /boom/, 'the crash stays in the server log')
  t.equal(run.status, 'FAILED')
  const took = Date.parse(run.finishedAt as string) - Date.parse(run.startedAt)
  t.ok(took < 2200 + RUN_GRACE_MS, `finished in ${took} ms`)
})

t.test('a RUNNING run whose process stopped is closed as FAILED once its deadline passed, and stays closed', async (t) => {
  const app = await build(t)
  const { developer, app: created } = await receiverApp(t, app)
  const finishing = gate()
  const slow: Check<CheckContext> = { id: 'slow', title: 'Slow', timeoutMs: 60_000, run: async () => { await finishing.opened; return fail('late', 'fix') } }
  const service = createAppChecks({
    db: app.db, log: app.log, fastify: app, ...portsOf(app), encryptionKey: app.config.encryptionKey, webhookTimeoutMs: 1000, browserPath: null,
    plan: () => [slow, slow]
  })
  t.teardown(() => service.close())
  const row = await portsOf(app).apps.ownedApp(developer.userId, created.id)
  const id = await service.start(row, { businessId: developer.businessId, userId: developer.userId }, 'developer')
  // as if its process had stopped long ago
  await app.db.update(checkRuns).set({ deadline: new Date(Date.now() - 1000) }).where(eq(checkRuns.id, id))
  const read = await app.inject({ url: `/developer/apps/${created.id}/checks/${id}`, headers: developer.auth })
  t.match(read.json(), { status: 'FAILED', finishedAt: String, results: [{ id: 'slow', outcome: 'FAIL', detail: /interrupted/ }, { id: 'slow', outcome: 'FAIL' }] })
  finishing.open()
  await service.idle()
  t.match((await service.get(created.id, id)).results, [{ detail: /interrupted/ }, { detail: /interrupted/ }], 'the late check wrote nothing')
})

t.test('submitting for review starts a run that the reviewer reads first; a failing run does not block the submission', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const { receiver, developer, appId, app: created } = await receiverApp(t, app)
  const reviewer = await loginReviewer(app)
  t.equal((await app.inject({ url: `/review/apps/${appId}/checks`, headers: reviewer.auth })).statusCode, 404, 'no run yet')
  receiver.faults = { acceptsForgedSignatures: true }
  const submitted = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/submit`, headers: developer.auth })
  t.equal(submitted.statusCode, 200)
  t.equal(submitted.json().status, 'PENDING_REVIEW')
  await portsOf(app).appChecks.idle()
  const seen = await app.inject({ url: `/review/apps/${appId}/checks`, headers: reviewer.auth })
  t.equal(seen.statusCode, 200)
  t.match(seen.json(), { trigger: 'submission', version: created.version, status: 'FAILED', results: [{ id: 'webhook.rejects_bad_signature', outcome: 'FAIL' }] })
  t.equal((await app.inject({ url: `/review/apps/${appId}/checks`, headers: developer.auth })).statusCode, 403, 'reviewers only')
  t.equal((await app.inject({ url: '/review/apps/app_unknown/checks', headers: reviewer.auth })).statusCode, 404)
})

t.test('a submission without a sandbox installation installs nothing: the checks that need one say so', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { webhookUrl: 'http://127.0.0.1:9/webhooks', redirectUrl: 'http://127.0.0.1:9/callback' })
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/submit`, headers: developer.auth })).statusCode, 200)
  await portsOf(app).appChecks.idle()
  const runs = (await app.inject({ url: `/developer/apps/${created.id}/checks`, headers: developer.auth })).json()
  t.match(runs.data, [{ trigger: 'submission', status: 'FAILED' }])
  const run = (await app.inject({ url: `/developer/apps/${created.id}/checks/${runs.data[0].id as string}`, headers: developer.auth })).json()
  t.match(run.results.find((r: { id: string }) => r.id === 'webhook.accepts_test'), { outcome: 'FAIL', detail: /not installed on the developer's sandbox/, fix: /Install the app on your sandbox/ })
  t.equal((await app.inject({ url: `/developer/apps/${created.id}/test-status`, headers: developer.auth })).json().installed, false, 'no installation was made')
})
