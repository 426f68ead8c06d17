import t from 'tap'
import { build, listen, portsOf } from '../../helper.ts'
import { referenceAppDataDir } from '../../../examples/reference-app/test/fixture.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../../../server/seed.ts'
import { installReferenceAppDemo, startReferenceApp, syncReferenceAppUrls } from '../../../server/demo-app.ts'

// The demo's flagship app passes its own checks: the reviewer meets the seeded reference app's
// submission run with every check passed (the admin-page bridge skipped: CHECKS_BROWSER_PATH=off here).
t.test('after the demo seed, the reference app passes its own checks', async (t) => {
  const platform = await build(t)
  await listen(platform)
  t.ok(await seedDemo(platform), 'the demo is seeded')
  const dataDir = await referenceAppDataDir(t)
  const reference = await startReferenceApp(platform, { port: 0, host: '127.0.0.1', dataDir })
  t.teardown(() => reference.close())
  await installReferenceAppDemo(platform, reference)
  await portsOf(platform).appChecks.idle()

  const login = await platform.inject({ method: 'POST', url: '/auth/login', payload: { email: DEMO_ACCOUNTS.reviewer, password: DEMO_PASSWORD } })
  const auth = { authorization: `Bearer ${login.json().token as string}` }
  const apps = (await platform.inject({ url: '/review/apps?status=APPROVED', headers: auth })).json()
  const app = (apps.data as Array<{ id: string, slug: string }>).find((a) => a.slug === 'reference-app')
  if (app === undefined) throw new Error(`no reference app among ${JSON.stringify(apps)}`)
  const run = (await platform.inject({ url: `/review/apps/${app.id}/checks`, headers: auth })).json()
  const results = run.results as Array<{ id: string, outcome: string, detail: string }>
  t.same(results.filter((r) => r.outcome === 'FAIL' || r.outcome === 'WARN').map((r) => `${r.id}: ${r.detail}`), [], 'no check fails or warns')
  t.same(results.filter((r) => r.outcome === 'SKIP').map((r) => r.id), ['admin_pages.overview.bridge'], 'only the bridge is skipped (no browser here)')
  t.equal(results.length, 15, 'every check ran')
  t.equal(run.status, 'PASSED')

  // its listing shows the approved Pro plan the app's "Upgrade to Pro" asks for (DESIGN §23)
  const listed = async () => (await platform.inject({ url: '/marketplace/apps/reference-app' })).json().pricing.plans as Array<Record<string, unknown>>
  t.match(await listed(), [{ id: 'pro', name: 'Pro', kind: 'RECURRING', price: { amount: 999, currency: 'USD' }, trialDays: 14, usage: { cappedAmount: { amount: 5000 } } }])

  // a demo seeded before the plan existed gets it at its next start
  const developer = (await platform.inject({ method: 'POST', url: '/auth/login', payload: { email: DEMO_ACCOUNTS.developer, password: DEMO_PASSWORD } })).json().token as string
  const asDeveloper = { authorization: `Bearer ${developer}` }
  await platform.inject({ method: 'PATCH', url: `/developer/apps/${app.id}`, headers: asDeveloper, payload: { pricing: { plans: [] } } })
  await platform.inject({ method: 'POST', url: `/developer/apps/${app.id}/submit`, headers: asDeveloper })
  t.equal((await platform.inject({ method: 'POST', url: `/review/apps/${app.id}/approve`, headers: auth, payload: {} })).statusCode, 200)
  t.same(await listed(), [], 'an older demo: free')
  await syncReferenceAppUrls(platform, reference)
  t.match(await listed(), [{ id: 'pro' }], 'priced and approved at the next start')
})
