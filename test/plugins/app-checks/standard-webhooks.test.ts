import t from 'tap'
import { build } from '../../helper.ts'
import { outcomes, receiverApp, runChecks } from './fixtures.ts'

// an app that chose Standard Webhooks verifies only webhook-signature: the checks must sign as its deliveries are signed
t.test('the webhook and hook checks sign as the app chose (Standard Webhooks)', async (t) => {
  const app = await build(t)
  const { developer, appId } = await receiverApp(t, app, undefined, 'standard-webhooks')
  const run = await runChecks(app, developer, appId)
  t.match(outcomes(run), {
    'webhook.rejects_bad_signature': 'PASS',
    'webhook.accepts_test': 'PASS',
    'webhook.data_erasure': 'PASS',
    'hooks.checkout.shipping_rates': 'PASS'
  })
  t.equal(run.status, 'PASSED')
})
