import t from 'tap'
import type { Page } from 'playwright-core'
import { build, createApp, listen, registerUser, until, portsOf } from '../helper.ts'
import { placeOrder, receiver } from '../plugins/webhooks/helpers.ts'
import { launch, logIn, screenshot } from './browser.ts'

/** A datetime-local value in the browser's (and this machine's) time zone. */
function localInput (at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`
}

async function noHorizontalScroll (page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

t.test('the developer console in Chromium: analytics, deliveries, hook calls, live tail', async (t) => {
  const app = await build(t, { env: { WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1,1,1', WEBHOOK_TIMEOUT_MS: '10000', RATE_LIMIT_PER_MINUTE: '6' } })
  const base = await listen(app)
  // one real server on 127.0.0.1 for the app: its webhook fails the first delivery (500 with a body) and then succeeds;
  // its shipping hook answers in the wrong shape
  let webhookRequests = 0
  let refuseNext = false
  const server = await receiver(t, (request) => {
    if (request.url === '/hooks/rates') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"price":12}' }
    webhookRequests++
    if (refuseNext) {
      refuseNext = false
      return { status: 500, body: 'not today' }
    }
    return webhookRequests === 1 ? { status: 500, body: 'receiver down: try again later' } : { status: 200, body: 'received' }
  })
  const webhookHits = () => server.received.filter((r) => r.headers['x-service-event-id'] !== undefined)

  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, {
    name: 'Parcel Pal', webhookUrl: server.url, webhookEvents: ['order.created'], scopes: ['read_products', 'read_orders', 'write_shipping']
  })
  const manifest = await app.inject({
    method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth,
    payload: { manifest: { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }] } }
  })
  t.equal(manifest.statusCode, 200)
  const install = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })
  t.equal(install.statusCode, 201)
  const { accessToken, businessId } = install.json()
  const token = { authorization: `Bearer ${accessToken}` }

  // real traffic: API requests (two over the limit of 6 a minute), an order (a delivery that fails, then succeeds on retry),
  // and a checkout quote on the sandbox store (the hook answers in the wrong shape)
  const statuses: number[] = []
  for (let i = 0; i < 8; i++) statuses.push((await app.inject({ url: '/app-api/products?limit=5', headers: token })).statusCode)
  t.same(statuses.filter((s) => s === 429).length, 2, 'two requests were rate limited')
  await placeOrder(app, businessId)
  await until(async () => webhookHits().length, (n) => n >= 2, 10_000)
  const me = (await app.inject({ url: '/auth/me', headers: developer.auth })).json()
  const quote = await app.storefront.inject({
    method: 'POST', url: `/store/${me.business.slug}/api/checkout/quote`,
    payload: { items: [{ productId: await firstProduct(app, businessId), quantity: 1 }], deliveryMethod: 'DELIVERY', locality: 'Downtown' }
  })
  t.equal(quote.statusCode, 200, 'the quote goes through without the refused hook')
  await portsOf(app).checkoutHooks.flush()
  const consolePath = `/developer/apps/${created.id}`
  await until(async () => (await app.inject({ url: `${consolePath}/deliveries`, headers: developer.auth })).json().data[0]?.status, (s) => s === 'SUCCEEDED')

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  await page.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${created.id}/analytics`)}`)
  await logIn(page, developer.email, 'correct-horse')

  await t.test('analytics: headline figures and charts drawn from the counters', async (t) => {
    await page.getByTestId('analytics').waitFor()
    t.equal(await page.getByRole('button', { name: 'Sandbox (test installs)' }).getAttribute('aria-pressed'), 'true', 'an unpublished app opens on its sandbox')
    t.equal(await page.getByTestId('total-installs').innerText(), '1')
    t.equal(await page.getByTestId('active-installs').innerText(), '1')
    t.equal(await page.getByTestId('success-rate').innerText(), '100.0 %', 'the delivery finished well after its retry')
    t.match(await page.getByTestId('latency').innerText(), /^\d+ ms$/)
    for (const chart of ['chart-installs', 'chart-deliveries', 'chart-api', 'chart-hook-checkout.shipping_rates']) {
      t.equal(await page.getByTestId(chart).locator('canvas').count(), 1, `${chart} is drawn`)
      t.ok(await page.getByTestId(chart).locator('.u-legend').isVisible(), `${chart} has a legend`)
    }
    const api = page.getByTestId('chart-api')
    await api.getByText('Show as a table').click()
    const totals = await api.locator('tfoot td').allInnerTexts()
    t.same(totals, ['6', '0', '0', '2', '0'], 'API requests by status class: 2xx, 3xx, 4xx, 429, 5xx')
    const hooks = page.getByTestId('chart-hook-checkout.shipping_rates')
    t.match(await hooks.locator('figcaption').innerText(), /0 answered, 1 refused/)
    // hover values: the legend shows the day under the cursor
    await page.getByTestId('chart-deliveries').scrollIntoViewIfNeeded()
    const box = await page.getByTestId('chart-deliveries').locator('.u-over').boundingBox()
    if (box === null) throw new Error('no chart area')
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.move(box.x + box.width - 3, box.y + box.height / 2, { steps: 8 })
    const legend = await until(async () => await page.getByTestId('chart-deliveries').locator('.u-legend').innerText(), (text) => /Succeeded\s*\d/.test(text), 15_000).catch(() => 'unchanged')
    t.match(legend, /Succeeded\s*1/, `today's value under the cursor: ${legend.replace(/\s+/g, ' ')}`)
    await screenshot(page, 'console-analytics')
    await page.getByRole('button', { name: '7 days' }).click()
    // the chart's own table, one row per day (uPlot's legend is a table too)
    await until(async () => await page.getByTestId('chart-installs').locator('details tbody tr').count(), (n) => n === 7)
    await page.getByRole('button', { name: 'Live' }).click()
    await until(async () => await page.getByTestId('total-installs').innerText(), (text) => text === '0')
    t.pass('the period and the installs switch; live leaves the test install out')
  })

  let eventId = ''
  await t.test('deliveries: the failed attempt with its answer and error, then the retry', async (t) => {
    await page.getByRole('tab', { name: 'Deliveries' }).click()
    await page.waitForURL(/\/deliveries$/)
    await page.getByTestId('live-state').getByText('Live').waitFor()
    await page.getByTestId('delivery').first().click()
    const detail = page.getByTestId('delivery-detail')
    await detail.getByTestId('attempt').nth(1).waitFor()
    eventId = await detail.getByTestId('event-id').innerText()
    const first = detail.getByTestId('attempt').first()
    t.match(await first.locator('h4').innerText(), /Attempt 1 · HTTP 500/)
    t.equal(await first.getByTestId('attempt-error').innerText(), 'HTTP 500')
    t.equal(await first.getByTestId('response-body').innerText(), 'receiver down: try again later')
    t.ok(await first.getByTestId('next-retry').isVisible(), 'when the retry was due')
    await first.getByText('Request headers').click()
    const headers = await first.getByTestId('request-headers').innerText()
    t.match(headers, /x-webhook-signature: sha256=[0-9a-f]{64}/, 'the signature shown')
    t.notMatch(headers, /whsec_/, 'the secret never')
    // the exact body sent, indented for reading (#29 item 13)
    const shown = await detail.getByTestId('request-body').innerText()
    t.same(JSON.parse(shown), JSON.parse(webhookHits()[0].body), 'the body sent')
    t.equal(shown, JSON.stringify(JSON.parse(webhookHits()[0].body), null, 2), 'indented by two spaces')
    t.match(await detail.getByTestId('attempt').nth(1).locator('h4').innerText(), /Attempt 2 · HTTP 200/)
    await screenshot(page, 'console-delivery-detail')
  })

  await t.test('redeliver: a new attempt with the same event id', async (t) => {
    const before = webhookHits().length
    await page.getByTestId('delivery-detail').getByRole('button', { name: 'Redeliver' }).click()
    await page.getByText('Redelivery queued').waitFor()
    await until(async () => webhookHits().length, (n) => n === before + 1, 10_000)
    t.equal(webhookHits().at(-1)?.headers['x-service-event-id'], eventId, 'the receiver saw the same event id')
    // the live tail reloads the open delivery
    await page.getByTestId('delivery-detail').getByTestId('attempt').nth(2).waitFor()
    t.match(await page.getByTestId('delivery-detail').getByTestId('attempt').nth(2).locator('h4').innerText(), /Attempt 3 · HTTP 200/)
  })

  await t.test('send a test event, then replay since an hour ago: the announced count is queued', async (t) => {
    const registration = page.getByTestId('registration').first()
    // a failed test event is an error, never a green notice
    refuseNext = true
    await registration.getByRole('button', { name: 'Send test event' }).click()
    const failed = registration.getByRole('alert').filter({ hasText: /Test event failed: HTTP 500/ })
    await failed.waitFor()
    t.equal(await registration.getByRole('status').filter({ hasText: /Test event/ }).count(), 0, 'the failure is not shown as a success notice')
    await screenshot(page, 'console-test-event-failed')
    await registration.getByRole('button', { name: 'Send test event' }).click()
    await registration.getByRole('status').filter({ hasText: /Test event delivered: HTTP 200/ }).waitFor()
    await registration.getByRole('button', { name: 'Replay since…' }).click()
    await registration.getByLabel('Since').fill(localInput(new Date(Date.now() - 3600_000)))
    await registration.getByRole('button', { name: 'Count' }).click()
    const count = Number(await registration.getByTestId('replay-count').innerText())
    t.equal(count, 3, 'the order and the two test events (the refused one and the delivered one)')
    await screenshot(page, 'console-replay-confirm')
    const before = webhookHits().length
    await registration.getByRole('button', { name: `Replay ${count}` }).click()
    await registration.getByText(`Queued ${count} deliveries`).waitFor()
    await until(async () => webhookHits().length, (n) => n >= before + count, 10_000)
    t.equal(webhookHits().length, before + count, 'exactly the announced number went out')
  })

  await t.test('live tail: a new delivery appears without a reload, within a second', async (t) => {
    const rows = page.getByTestId('delivery')
    const shown = await rows.count()
    await placeOrder(app, businessId)
    const committed = Date.now()
    await until(async () => await rows.count(), (n) => n === shown + 1, 5000)
    const took = Date.now() - committed
    // the aim is a second on a quiet machine; the bound is three, so a loaded CI machine does not fail it
    t.ok(took < 3000, `shown ${took} ms after the order`)
    await screenshot(page, 'console-deliveries-live')
  })

  await t.test('a registration switched off says why and can be re-enabled', async (t) => {
    const [webhook] = (await app.inject({ url: `${consolePath}/webhooks`, headers: developer.auth })).json().data
    // set up as the delivery engine leaves a registration it switched off (the app token is over its rate limit here)
    await app.database.executeSql(`update webhooks set is_active = false, consecutive_failures = 10,
      disabled_reason = 'Disabled after 10 consecutive failed deliveries; the last one: HTTP 500' where id = $1`, [webhook.id])
    await page.reload()
    const registration = page.getByTestId('registration').first()
    t.match(await registration.getByTestId('disabled-reason').innerText(), /Why it is off: Disabled after 10 consecutive failed deliveries; the last one: HTTP 500/)
    await registration.getByRole('button', { name: 'Re-enable' }).click()
    await registration.getByText('Active', { exact: true }).waitFor()
    t.pass('re-enabled')
  })

  await t.test('hook calls: the refused answer, why, and the policy applied', async (t) => {
    await page.getByRole('tab', { name: 'Hook calls' }).click()
    await page.getByTestId('hook-call').first().click()
    const detail = page.getByTestId('hook-call-detail')
    await detail.getByTestId('refusal-reason').waitFor()
    t.match(await detail.getByTestId('refusal-reason').innerText(), /answer does not match checkout\.shipping_rates: .*must have required property 'fee'/)
    t.match(await detail.getByTestId('policy-applied').innerText(), /The delivery fee so far was kept/)
    t.equal(await detail.getByTestId('hook-answer').innerText(), '{\n  "price": 12\n}', 'the answer, indented')
    t.match(await detail.getByTestId('hook-request').innerText(), /"hookPoint": "checkout\.shipping_rates"/)
    await screenshot(page, 'console-hook-call')
  })

  await t.test('by keyboard, and at 390 px without sideways scrolling', async (t) => {
    // a date-time filter squeezed into a narrow column scrolled inside itself and hid its month or its time
    const dateWidths = async () => await page.getByRole('form', { name: 'Filter deliveries' }).locator('input[type=datetime-local]')
      .evaluateAll((inputs) => inputs.map((input) => Math.round(input.getBoundingClientRect().width)))
    await page.goto(`${base}/portal/apps/${created.id}/deliveries`)
    await page.getByTestId('delivery').first().waitFor()
    const wide = await dateWidths()
    t.ok(wide.length === 2 && wide.every((width) => width >= 220), `From and To show a whole date and time at 1200 px (${wide.join(', ')} px)`)
    await page.setViewportSize({ width: 390, height: 844 })
    for (const tab of ['analytics', 'deliveries', 'hook-calls']) {
      await page.goto(`${base}/portal/apps/${created.id}/${tab}`)
      await page.getByRole('tabpanel').locator(tab === 'analytics' ? '[data-testid=analytics]' : tab === 'deliveries' ? '[data-testid=deliveries]' : '[data-testid=hook-calls]').waitFor()
      t.ok(await noHorizontalScroll(page), `${tab} fits 390 px`)
      await screenshot(page, `console-${tab}-390`)
    }
    await page.goto(`${base}/portal/apps/${created.id}/deliveries`)
    await page.getByTestId('delivery').first().waitFor()
    const narrow = await dateWidths()
    t.ok(narrow.length === 2 && narrow.every((width) => width >= 220), `From and To show a whole date and time at 390 px (${narrow.join(', ')} px)`)
    await page.getByRole('form', { name: 'Filter deliveries' }).locator('select').first().focus()
    let reached = false
    // the date-time filters take a stop per field
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'delivery')
    }
    t.ok(reached, 'Tab reaches the deliveries')
    await page.keyboard.press('Enter')
    await page.getByTestId('delivery-detail').getByTestId('attempt').first().waitFor()
    t.ok(await noHorizontalScroll(page), 'the detail fits too')
    await screenshot(page, 'console-delivery-detail-390')
  })
})

async function firstProduct (app: Awaited<ReturnType<typeof build>>, businessId: string): Promise<string> {
  // one the store sells (an unordered `limit 1` is whatever the planner's index gives first)
  const found = await app.database.executeSql(
    "select id from products where business_id = $1 and status = 'ACTIVE' and is_available and stock > 1 order by created_at, id limit 1", [businessId])
  return found.rows[0].id as string
}
