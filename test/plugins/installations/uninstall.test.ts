import t from 'tap'
import { and, eq, sql } from 'drizzle-orm'
import { installations, outboxEvents, pages, webhooks } from '../../../server/db/schema/index.ts'
import { DATA_ERASURE_JOB } from '../../../plugins/installations/service.ts'
import { build, registerUser, createApp, publishApp, oauthInstall, releaseDelayedJobs, REVIEWER_ENV, until } from '../../helper.ts'

async function erasureJobs (app: Awaited<ReturnType<typeof build>>, installationId: string) {
  const { rows } = await app.database.executeSql(
    'select state, start_after as "startAfter", data from pgboss.job where name = $1 and data->>\'installationId\' = $2', [DATA_ERASURE_JOB, installationId])
  return rows as Array<{ state: string, startAfter: Date, data: { uninstalledAt: string, appId: string, businessId: string } }>
}

t.test('merchant uninstall', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, DATA_ERASURE_DELAY_SECONDS: '3600' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business', 'read_orders'], webhookEvents: ['order.created'] })
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })

  const [own] = await app.db.select().from(webhooks).where(eq(webhooks.installationId, installed.installationId))
  t.match(own, { url: created.webhookUrl, events: ['order.created'], isActive: true, isAppWebhook: true }, 'install created the app’s own webhook')

  await app.db.insert(pages).values({
    id: 'page_uninstall_test', businessId: merchant.businessId, slug: 'landing', title: 'Landing', blocks: [
      { id: 'b1', installationId: installed.installationId, blockType: 'hero', settings: {} },
      { id: 'b2', installationId: 'inst_someone_else', blockType: 'faq', settings: {} }
    ]
  })
  t.equal((await app.inject({ url: '/app-api/business', headers: installed.auth })).statusCode, 200, 'the token works (and is now cached)')

  const other = await registerUser(app, 'MERCHANT')
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/installations/${installed.installationId}`, headers: other.auth })).statusCode, 404, 'another merchant cannot uninstall it')

  const before = Date.now()
  const response = await app.inject({ method: 'DELETE', url: `/merchant/installations/${installed.installationId}`, headers: merchant.auth })
  t.same(response.json(), { uninstalled: true, installationId: installed.installationId })

  const after = await app.inject({ url: '/app-api/business', headers: installed.auth })
  t.equal(after.statusCode, 401, 'the very next call is refused')
  t.match(after.json(), { statusCode: 401, error: 'Unauthorized' })

  const [hook] = await app.db.select().from(webhooks).where(eq(webhooks.installationId, installed.installationId))
  t.equal(hook.isActive, false, 'webhooks deactivated')
  const [page] = await app.db.select().from(pages).where(eq(pages.id, 'page_uninstall_test'))
  t.same(page.blocks.map((b) => b.id), ['b2'], 'its blocks are gone from the page, others stay')
  t.same((await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data, [], 'no longer listed')

  const [job] = await erasureJobs(app, installed.installationId)
  t.ok(job, 'a data-erasure job exists')
  t.equal(job.state, 'created')
  const delay = new Date(job.startAfter).getTime() - before
  t.ok(delay > 3595_000 && delay < 3605_000, `runs after DATA_ERASURE_DELAY_SECONDS (${delay} ms)`)
  t.match(job.data, { appId: created.id, businessId: merchant.businessId })
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/installations/${installed.installationId}`, headers: merchant.auth })).statusCode, 404, 'twice is a 404')
})

t.test('the erasure job asks the app to erase, unless the merchant came back', async (t) => {
  // the job waits its hour (database time): the test releases it when it wants it to run (releaseDelayedJobs)
  const app = await build(t, { env: { ...REVIEWER_ENV, DATA_ERASURE_DELAY_SECONDS: '3600' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'] })
  await publishApp(app, developer, created.id)
  const client = { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl }
  const waitForJob = async (installationId: string) => {
    t.equal(await releaseDelayedJobs(app, DATA_ERASURE_JOB), 1, 'the erasure job is due')
    await until(async () => await erasureJobs(app, installationId), ([job]) => job?.state === 'completed')
  }
  const erasureEvents = (businessId: string) => app.db.select().from(outboxEvents).where(and(eq(outboxEvents.businessId, businessId), eq(outboxEvents.event, 'business.data_erasure')))

  const leaving = await registerUser(app, 'MERCHANT')
  const first = await oauthInstall(app, leaving, client)
  await app.inject({ method: 'DELETE', url: `/merchant/installations/${first.installationId}`, headers: leaving.auth })
  await waitForJob(first.installationId)
  const [event] = await erasureEvents(leaving.businessId)
  t.match(event, { installationId: first.installationId, data: { appId: created.id, businessId: leaving.businessId, uninstalledAt: String } })

  const returning = await registerUser(app, 'MERCHANT')
  const second = await oauthInstall(app, returning, client)
  await app.inject({ method: 'DELETE', url: `/merchant/installations/${second.installationId}`, headers: returning.auth })
  await oauthInstall(app, returning, client)
  await waitForJob(second.installationId)
  t.same(await erasureEvents(returning.businessId), [], 'a reinstall before it fires cancels it')
})

t.test('developer test installs', async (t) => {
  const app = await build(t, { env: { DATA_ERASURE_DELAY_SECONDS: '3600' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { scopes: ['read_business', 'read_pages'] })
  const url = (action: string) => `/developer/apps/${created.id}/${action}`

  const none = await app.inject({ url: url('test-status'), headers: developer.auth })
  t.match(none.json(), { installed: false, installationId: null, businessId: developer.businessId, webhooks: [], recentDeliveries: [] })
  t.equal((await app.inject({ method: 'POST', url: url('test-uninstall'), headers: developer.auth })).statusCode, 404)

  const first = await app.inject({ method: 'POST', url: url('test-install'), headers: developer.auth })
  t.equal(first.statusCode, 201)
  t.match(first.json(), { installationId: /^inst_/, accessToken: /^fbat_test_/, webhookSecret: /^whsec_test_/, businessId: developer.businessId, isTestInstall: true })
  const firstAuth = { authorization: `Bearer ${first.json().accessToken}` }
  t.equal((await app.inject({ url: '/app-api/pages', headers: firstAuth })).statusCode, 200, 'test tokens behave like production tokens')

  const second = await app.inject({ method: 'POST', url: url('test-install'), headers: developer.auth })
  t.not(second.json().installationId, first.json().installationId)
  t.equal((await app.inject({ url: '/app-api/pages', headers: firstAuth })).statusCode, 401, 'a new test install revokes the earlier token')

  const status = await app.inject({ url: url('test-status'), headers: developer.auth })
  t.match(status.json(), { installed: true, installationId: second.json().installationId, isTestInstall: true, needsReConsent: false, grantedScopes: ['read_business', 'read_pages'], installedAt: String, webhooks: [{ url: created.webhookUrl, isActive: true }] })

  const removed = await app.inject({ method: 'POST', url: url('test-uninstall'), headers: developer.auth })
  t.same(removed.json(), { uninstalled: true, installationId: second.json().installationId })
  t.equal((await app.inject({ url: '/app-api/pages', headers: { authorization: `Bearer ${second.json().accessToken}` } })).statusCode, 401)
  const [{ n }] = await app.db.select({ n: sql<number>`count(*)::int` }).from(installations).where(eq(installations.id, second.json().installationId))
  t.equal(n, 1, 'the record is kept, marked uninstalled')
  t.equal((await erasureJobs(app, second.json().installationId)).length, 1, 'erasure scheduled like any uninstall')

  const stranger = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ method: 'POST', url: url('test-install'), headers: stranger.auth })).statusCode, 404)
})
