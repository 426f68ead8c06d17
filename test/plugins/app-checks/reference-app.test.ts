import t from 'tap'
import { consent, stage } from '../../../examples/reference-app/test/fixture.ts'
import { CHROMIUM } from '../../e2e/browser.ts'
import { outcomes, runChecks } from './fixtures.ts'

// The reference app (examples/reference-app) passes every check, the admin-page bridge in headless Chromium included.
t.test('the reference app passes every app check', async (t) => {
  const s = await stage(t, { CHECKS_BROWSER_PATH: CHROMIUM })
  const sandbox = (await s.platform.inject({ url: '/merchant/business', headers: s.developer.auth })).json()

  // the developer installs their app on their sandbox as a merchant would: App URL → consent → callback
  const start = await fetch(`${s.appUrl}/?businessId=${s.developer.businessId}&business=${sandbox.slug as string}`, { redirect: 'manual' })
  const authorize = new URL(start.headers.get('location') ?? 'about:blank')
  const callback = await consent({ ...s, merchant: { ...s.developer, slug: sandbox.slug } }, authorize)
  const done = await fetch(callback, { headers: { cookie: (start.headers.get('set-cookie') ?? '').split(';')[0] } })
  t.equal(done.status, 200, 'installed on the sandbox')

  const run = await runChecks(s.platform, s.developer, s.appId)
  const ids = Object.keys(outcomes(run))
  t.same(ids.sort(), [
    'admin_pages.overview.bridge', 'admin_pages.overview.frameable', 'blocks.reviews-highlights.frameable', 'embeds.loyalty-widget.frameable',
    'hooks.checkout.create_payment', 'hooks.checkout.payment_methods', 'hooks.checkout.shipping_rates', 'hooks.order.calculate_discounts', 'hooks.order.validate',
    'install.app_url', 'oauth.redirect', 'scopes.used', 'webhook.accepts_test', 'webhook.data_erasure', 'webhook.rejects_bad_signature'
  ])
  t.same(run.results.filter((r) => r.outcome !== 'PASS').map((r) => `${r.id}: ${r.detail}`), [], 'every check passes')
  t.equal(run.status, 'PASSED')
  t.match(run.results.find((r) => r.id === 'admin_pages.overview.bridge'), { detail: /sent service:ready/ })

  // the sandbox installation survives the run's erasure (it was for an earlier installation), so a second run passes too
  t.ok(s.reference.reference.store.installation(s.developer.businessId), 'the app still knows its sandbox installation')
  const again = await runChecks(s.platform, s.developer, s.appId)
  t.equal(again.status, 'PASSED')
})
