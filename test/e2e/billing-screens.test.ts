import t, { type Test } from 'tap'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build, listen, portsOf, REVIEWER_ENV, type Session } from '../helper.ts'
import { TestClock } from '../clock.ts'
import { ask, DAY_MS, decide, merchantWith, pricedApp, RETURN_URL, usd } from '../plugins/billing/helpers.ts'
import { EARNINGS_CSV_COLUMNS } from '../../sdk/src/contract/billing.ts'
import { fitsWidth, launch, screenshot, seriousAxeViolations } from './browser.ts'

type App = Awaited<ReturnType<typeof build>>
const WIDTHS = [1280, 390]
const RETURN = new URL(RETURN_URL)

/** Each screen at 1280 and 390 px: no sideways scroll, no serious axe finding, and a screenshot to look at. */
async function lookAt (t: Test, page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    t.ok(await fitsWidth(page), `${name} at ${width}: no sideways scroll`)
    t.same((await seriousAxeViolations(page)).map((v) => `${v.id}: ${v.nodes.join(', ')}`), [], `${name} at ${width}: no serious axe violation`)
    await screenshot(page, `billing-${name}-${width}`)
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 })
}

/** The browser logs an API answer that is an error (the 409 of a late answer, a 404): expected there, and taken out of `messages`. */
function expectLogged (t: Test, messages: string[], pattern: RegExp, what: string, count = 1): void {
  const kept = messages.filter((m) => !pattern.test(m))
  t.equal(messages.length - kept.length, count, what)
  messages.splice(0, messages.length, ...kept)
}

/** A browser context signed in as `user`, where the app's return page (off this network) is answered here. */
async function signedIn (app: App, browser: Browser, user: Session): Promise<{ context: BrowserContext, page: Page, messages: string[] }> {
  const login = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: 'correct-horse' } })).json()
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 900 } })
  await context.addInitScript((value) => { localStorage.setItem('app-platform.session', value) }, JSON.stringify({ token: login.token, user: login.user }))
  await context.route(`${RETURN.origin}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>App</title><h1>Back at the app</h1></html>' }))
  const page = await context.newPage()
  const messages: string[] = []
  page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') messages.push(`${message.type()}: ${message.text()}`) })
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`))
  page.on('dialog', (dialog) => { messages.push(`a native dialog opened: ${dialog.message()}`); void dialog.dismiss() })
  return { context, page, messages }
}

t.test('billing screens in Chromium: approve, decline, a late answer, usage, invoices, cancel, earnings', async (t) => {
  const clock = new TestClock()
  const app = await build(t, { clock, env: REVIEWER_ENV })
  const base = await listen(app)
  const priced = await pricedApp(app)
  const { merchant, installed } = await merchantWith(app, priced)
  const browser = await launch(t)
  const { page, messages } = await signedIn(app, browser, merchant)

  await t.test('nothing yet: the empty billing page', async (t) => {
    await page.goto(`${base}/admin/billing`)
    await page.getByText('No apps charge you').waitFor()
    await page.getByText('No invoices yet').waitFor()
    t.match(await page.getByTestId('next-invoice').innerText(), /No invoice is scheduled/)
    t.equal(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Billing' }).getAttribute('aria-current'), 'page', 'Billing is in the admin nav')
    await lookAt(t, page, 'empty')
  })

  let basicId = ''
  await t.test('an app asks for a subscription: the merchant finds it on Billing, reviews and approves it, and goes back to the app', async (t) => {
    const basic = await ask(app, installed, 'subscriptions', 'basic')
    basicId = basic.id
    await page.goto(`${base}/admin/billing`)
    const pending = page.getByTestId('pending-charges')
    await pending.waitFor()
    t.match(await pending.innerText(), /Basic · \$9\.99 every 30 days/)
    await pending.getByRole('link', { name: /^Review/ }).click()
    await page.waitForURL(`${base}/admin/charges/${basic.id}`)
    t.equal(new URL(basic.confirmationUrl).pathname, `/admin/charges/${basic.id}`, 'the confirmationUrl is this screen')
    await page.getByRole('heading', { name: /asks you to approve a charge/ }).waitFor()
    t.equal(await page.getByTestId('charge-plan').innerText(), 'Basic')
    t.equal(await page.getByTestId('charge-price').innerText(), '$9.99 every 30 days')
    t.equal(await page.getByTestId('charge-trial').innerText(), '7 days')
    t.match(await page.getByTestId('charge-usage').innerText(), /Up to \$50\.00 every 30 days[\s\S]*\$0\.10 per label/)
    t.equal(await page.getByTestId('charge-status').innerText(), 'Waiting for approval')
    t.equal(await page.getByTestId('test-badge').count(), 0, 'no Test badge on a real charge')
    await lookAt(t, page, 'approve')
    // by keyboard: Approve is a button reached with Tab, taken with Enter
    await page.getByRole('button', { name: 'Decline' }).focus()
    await page.keyboard.press('Tab')
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Approve')
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => url.origin === RETURN.origin)
    const back = new URL(page.url())
    t.equal(`${back.origin}${back.pathname}`, RETURN_URL, 'the browser went to the app\'s returnUrl')
    t.same(Object.fromEntries(back.searchParams), { charge_id: basic.id, status: 'ACTIVE' })
  })

  await t.test('a test purchase: the Test badge, and Decline goes back to the app with DECLINED', async (t) => {
    const setup = await ask(app, installed, 'purchases', 'setup', { test: true })
    await page.goto(`${base}/admin/charges/${setup.id}`)
    await page.getByTestId('charge').waitFor()
    t.equal(await page.getByTestId('test-badge').innerText(), 'Test')
    t.equal(await page.getByTestId('charge-price').innerText(), '$25.00 once')
    t.equal(await page.getByTestId('charge-trial').count(), 0, 'a purchase has no trial')
    await lookAt(t, page, 'test-purchase')
    await page.getByRole('button', { name: 'Decline' }).click()
    await page.waitForURL((url) => url.origin === RETURN.origin)
    t.same(Object.fromEntries(new URL(page.url()).searchParams), { charge_id: setup.id, status: 'DECLINED' })
  })

  await t.test('an answer that comes too late (decided in another tab) says so and changes nothing', async (t) => {
    const pro = await ask(app, installed, 'subscriptions', 'pro')
    await page.goto(`${base}/admin/charges/${pro.id}`)
    await page.getByRole('button', { name: 'Approve' }).waitFor()
    await decide(app, merchant, pro.id, 'decline')
    await page.getByRole('button', { name: 'Approve' }).click()
    // the notice names the status the charge has now, once it is loaded again
    await page.getByRole('alert').filter({ hasText: 'no longer waiting for your answer: it is declined. Nothing was changed.' }).waitFor()
    await page.getByTestId('charge-status').filter({ hasText: 'Declined' }).waitFor()
    t.equal(await page.getByRole('button', { name: 'Approve' }).count(), 0, 'no buttons once decided')
    t.equal(new URL(page.url()).pathname, `/admin/charges/${pro.id}`, 'the browser stayed')
    await lookAt(t, page, 'too-late')
    expectLogged(t, messages, /status of 409 \(Conflict\)/, 'the browser logged the 409')
  })

  await t.test('a redirectUrl that is not http(s) is never followed', async (t) => {
    const extra = await ask(app, installed, 'purchases', 'setup', { test: true })
    // the real approval, its answer's redirectUrl swapped for a script URL on the way to the page
    await page.route('**/merchant/charges/*/approve', async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, json: { ...await response.json(), redirectUrl: 'javascript:alert(document.domain)' } })
    })
    t.teardown(() => page.unroute('**/merchant/charges/*/approve'))
    await page.goto(`${base}/admin/charges/${extra.id}`)
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.getByText('gave no address to go back to').waitFor()
    t.equal(new URL(page.url()).pathname, `/admin/charges/${extra.id}`, 'the browser stayed on the admin')
    t.equal(await page.locator('a[href^="javascript:"]').count(), 0, 'the URL is not put into the page')
    await page.unroute('**/merchant/charges/*/approve')
  })

  await t.test('another business\'s charge, and an unknown one, are not found', async (t) => {
    const other = await merchantWith(app, priced)
    const theirs = await ask(app, other.installed, 'subscriptions', 'pro')
    for (const id of [theirs.id, 'sub_nope']) {
      await page.goto(`${base}/admin/charges/${id}`)
      await page.getByRole('heading', { name: 'Charge not found' }).waitFor()
      t.equal(await page.getByRole('button', { name: 'Approve' }).count(), 0, `${id}: nothing to approve`)
    }
    await lookAt(t, page, 'not-found')
    expectLogged(t, messages, /status of 404 \(Not Found\)/, 'the browser logged the two 404s', 2)
  })

  await t.test('the active subscription shows its price, next charge and usage against the cap', async (t) => {
    const usage = await app.inject({
      method: 'POST', url: `/app-api/billing/subscriptions/${basicId}/usage-records`, headers: installed.auth,
      payload: { description: 'Labels printed', price: usd(4600), idempotencyKey: 'batch-1' }
    })
    t.equal(usage.statusCode, 201)
    await page.goto(`${base}/admin/billing`)
    const card = page.getByTestId(`subscription-${basicId}`)
    await card.waitFor()
    const text = await card.innerText()
    t.match(text, /Basic/)
    t.match(text, /\$9\.99 every 30 days/)
    t.match(await card.getByTestId('usage').innerText(), /\$46\.00 of \$50\.00 used this cycle/)
    const shown = (await app.inject({ url: '/merchant/billing', headers: merchant.auth })).json()
    t.not(shown.nextInvoiceAt, null, 'an approved charge schedules the first invoice')
    t.not(await card.getByTestId('next-charge').innerText(), '—')
    t.equal(await page.getByTestId('pending-charges').count(), 0, 'nothing waits any more')
    await lookAt(t, page, 'active')
  })

  await t.test('the cycle ends: the invoice, opened by keyboard, lists its lines and total', async (t) => {
    clock.advance(31 * DAY_MS)
    const { invoices } = await portsOf(app).billing.runDue()
    t.equal(invoices.length, 1, 'one invoice written')
    const listed = (await app.inject({ url: '/merchant/invoices', headers: merchant.auth })).json()
    const invoice = listed.data[0]
    await page.goto(`${base}/admin/billing`)
    const item = page.getByTestId(`invoice-${invoice.id}`)
    await item.waitFor()
    await item.locator('summary').focus()
    await page.keyboard.press('Enter')
    await item.getByRole('table').waitFor()
    t.equal(await item.getByRole('row').count(), invoice.lines.length + 2, 'a row per line, with the header and total')
    t.equal(await item.getByTestId('invoice-total').innerText(), `$${(invoice.total.amount / 100).toFixed(2)}`)
    t.match(await item.innerText(), /Usage[\s\S]*\$46\.00/)
    await lookAt(t, page, 'invoice')
  })

  await t.test('the developer\'s Earnings tab: figures, months, test charges apart, and the CSV', async (t) => {
    const { context, page: portal, messages: portalMessages } = await signedIn(app, browser, priced.developer)
    t.teardown(() => context.close())
    await portal.goto(`${base}/portal/apps/${priced.appId}/earnings`)
    await portal.getByTestId('earnings').waitFor()
    t.equal(await portal.getByRole('tab', { name: 'Earnings' }).getAttribute('aria-selected'), 'true')
    const earnings = (await app.inject({ url: `/developer/apps/${priced.appId}/earnings?months=12`, headers: priced.developer.auth })).json()
    t.equal(await portal.getByTestId('paying-installations').innerText(), String(earnings.payingInstallations))
    t.equal(await portal.getByTestId('mrr').innerText(), `$${(earnings.monthlyRecurringRevenue.amount / 100).toFixed(2)}`)
    t.equal(await portal.getByTestId('earnings-months').locator('tbody tr').count(), 12, 'twelve months')
    const month = earnings.months.find((m: { gross: { amount: number } }) => m.gross.amount > 0)
    t.ok(month, 'a month with earnings')
    t.match(await portal.locator(`tr[data-month="${month.month as string}"]`).innerText(), `$${(month.net.amount / 100).toFixed(2)}`)
    await lookAt(t, portal, 'earnings')
    const [download] = await Promise.all([portal.waitForEvent('download'), portal.getByTestId('earnings-csv').click()])
    const stream = await download.createReadStream()
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const csv = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)
    t.equal(csv[0], EARNINGS_CSV_COLUMNS.join(','), 'the CSV\'s header')
    t.ok(csv.filter((line) => line !== '').length > 1, 'and a row per invoice line')
    t.same(portalMessages, [], 'no console error or warning in the portal')
  })

  await t.test('a test install: the developer approves its test subscription in the sandbox admin, and is never billed', async (t) => {
    const testInstall = await app.inject({ method: 'POST', url: `/developer/apps/${priced.appId}/test-install`, headers: priced.developer.auth })
    t.equal(testInstall.statusCode, 201)
    const sandbox = { auth: { authorization: `Bearer ${testInstall.json().accessToken as string}` } }
    const asked = await app.inject({ method: 'POST', url: '/app-api/billing/subscriptions', headers: sandbox.auth, payload: { planId: 'pro', returnUrl: RETURN_URL } })
    t.equal(asked.statusCode, 201)
    const charge = asked.json()
    t.equal(charge.test, true, 'a test install\'s charge is a test')
    const { context, page: admin, messages: adminMessages } = await signedIn(app, browser, priced.developer)
    t.teardown(() => context.close())
    await admin.goto(charge.confirmationUrl.replace(/^https?:\/\/[^/]+/, base))
    await admin.getByTestId('sandbox-badge').waitFor()
    t.equal(await admin.getByTestId('test-badge').innerText(), 'Test')
    await admin.getByRole('button', { name: 'Approve' }).click()
    await admin.waitForURL((url) => url.origin === RETURN.origin)
    await admin.goto(`${base}/admin/billing`)
    const card = admin.getByTestId(`subscription-${charge.id as string}`)
    await card.waitFor()
    t.equal(await card.getByTestId('test-badge').innerText(), 'Test')
    t.equal(await card.getByTestId('next-charge').innerText(), 'None: a test subscription is never billed')
    t.match(await admin.getByTestId('next-invoice').innerText(), /No invoice is scheduled/, 'a test charge schedules no invoice')
    await lookAt(t, admin, 'sandbox')
    t.same(adminMessages, [], 'no console error or warning in the sandbox admin')
  })

  await t.test('Cancel asks in the page, by keyboard, and the subscription goes', async (t) => {
    await page.goto(`${base}/admin/billing`)
    const card = page.getByTestId(`subscription-${basicId}`)
    const cancel = card.getByRole('button', { name: /^Cancel subscription to/ })
    await cancel.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Keep it', 'focus goes to Keep it')
    await page.keyboard.press('Escape')
    t.equal(await dialog.count(), 0, 'Escape closes it')
    t.ok(await cancel.evaluate((button) => button === document.activeElement), 'and focus returns to the button')
    await page.keyboard.press('Enter')
    await dialog.getByRole('button', { name: 'Cancel the subscription' }).click()
    await page.getByRole('status').filter({ hasText: 'subscription is cancelled' }).waitFor()
    await page.getByText('No apps charge you').waitFor()
    t.equal((await app.inject({ url: `/merchant/charges/${basicId}`, headers: merchant.auth })).json().status, 'CANCELLED')
    const again = await app.inject({ method: 'POST', url: `/merchant/subscriptions/${basicId}/cancel`, headers: merchant.auth })
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'charge_not_active')
  })

  await t.test('a failed load says so', async (t) => {
    await page.route('**/merchant/billing', (route) => route.abort())
    await page.goto(`${base}/admin/billing`)
    await page.getByRole('alert').filter({ hasText: 'Could not reach the server' }).waitFor()
    await page.unroute('**/merchant/billing')
    expectLogged(t, messages, /net::ERR_FAILED/, 'the browser logged the failed request')
  })

  t.same(messages, [], 'no console error or warning, no native dialog')
})
