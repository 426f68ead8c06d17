import t from 'tap'
import { sql } from 'drizzle-orm'
import { build, listen } from '../helper.ts'
import { installApp, receiver, registerWebhook } from '../plugins/webhooks/helpers.ts'
import { rows } from '../../server/db/rows.ts'
import { launch, logIn, screenshot } from './browser.ts'

/** #28 item 7 in the browser: the console's Next and Previous follow keyset cursors through the delivery log. */
t.test('the deliveries log pages by cursor: Next, Next, Previous show each delivery once, newest first', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const target = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, target.url)
  // 45 deliveries, the first 15 on one microsecond (ties broken by id)
  await rows(app.db, sql`insert into webhook_deliveries (id, webhook_id, app_id, installation_id, business_id, event, data, status, attempts, last_status_code, created_at)
    select 'dlv_p' || lpad(n::text, 3, '0'), ${webhook.id}, ${installed.appId}, ${installed.installationId}, ${installed.businessId},
      'order.created', '{}'::jsonb, 'SUCCEEDED', 1, 200,
      case when n <= 15 then timestamptz '2026-11-20 10:00:00.500123+00' else timestamptz '2026-11-20 09:00:00+00' + (n || ' minutes')::interval end
    from generate_series(1, 45) as n`)
  const expected = (await rows<{ id: string }>(app.db, sql`select id from webhook_deliveries where app_id = ${installed.appId} order by created_at desc, id desc`)).map((r) => r.id)

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${installed.appId}/deliveries`)}`)
  await logIn(page, installed.developer.email, 'correct-horse')
  const pager = page.getByRole('navigation', { name: 'Pages' })
  const shown = async (label: RegExp) => {
    await pager.getByText(label).waitFor()
    return await page.getByTestId('delivery').evaluateAll((items) => items.map((item) => item.getAttribute('data-delivery-id') ?? ''))
  }
  const first = await shown(/^Page 1 of 3$/)
  await pager.getByRole('button', { name: 'Next' }).click()
  const second = await shown(/^Page 2 of 3$/)
  await pager.getByRole('button', { name: 'Next' }).click()
  const third = await shown(/^Page 3 of 3$/)
  t.ok(await pager.getByRole('button', { name: 'Next' }).isDisabled(), 'the last page has no Next')
  t.same([...first, ...second, ...third], expected, 'every delivery once, in the log\'s order')
  await screenshot(page, 'console-paging-last')
  await pager.getByRole('button', { name: 'Previous' }).click()
  t.same(await shown(/^Page 2 of 3$/), second, 'Previous goes back to the same page')
})
