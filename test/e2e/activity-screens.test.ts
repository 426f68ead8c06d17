import t from 'tap'
import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, REVIEWER_ENV } from '../helper.ts'
import { createProduct } from '../plugins/commerce/fixtures.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'

async function check (t: Test, page: Page, name: string): Promise<void> {
  t.same(await seriousAxeViolations(page), [], `${name}: no serious or critical axe violation`)
  t.ok(await fitsWidth(page), `${name}: no sideways scrolling`)
  await screenshot(page, name)
}

/** The entries of the list on screen, as "actor type: text". */
async function entries (page: Page): Promise<string[]> {
  // read in one go: the list may be replaced between reads of its items one by one
  return await page.getByTestId('activity-entry').evaluateAll((items) =>
    items.map((item) => `${item.getAttribute('data-actor') ?? ''}: ${(item as HTMLElement).innerText.replace(/\s+/g, ' ')}`))
}

t.test('the activity screens in Chromium: an order’s timeline names the customer, the app and the staff member; /admin/activity filters and pages', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const merchant = await registerUser(app, 'MERCHANT', { name: 'Rosa Marquez' })
  const slug = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json().slug as string
  const product = await createProduct(app, merchant, { name: 'Sourdough loaf', stock: 50 })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { name: 'Kitchen Display', scopes: ['read_orders', 'write_orders'] })
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })

  // the customer checks out on the storefront; the app confirms the order through the App API
  const placed = await app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/orders`,
    payload: { items: [{ productId: product.id, quantity: 2 }], customer: { name: 'Ana Customer', email: 'ana@example.com' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
  })
  t.equal(placed.statusCode, 201, placed.body)
  const order = placed.json().order as { id: string, orderNumber: string }
  t.equal((await app.inject({ method: 'PATCH', url: `/app-api/orders/${order.id}/status`, headers: installed.auth, payload: { status: 'CONFIRMED' } })).statusCode, 200)
  // enough product edits for a second page of the log
  for (let n = 1; n <= 30; n++) {
    t.equal((await app.inject({ method: 'PATCH', url: `/merchant/products/${product.id as string}`, headers: merchant.auth, payload: { price: 500 + n } })).statusCode, 200)
  }

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`${base}/login?next=${encodeURIComponent(`/admin/orders/${order.id}`)}`)
  await logIn(page, merchant.email, 'correct-horse')
  const timeline = page.getByRole('list', { name: `Timeline of order #${order.orderNumber}` })
  await timeline.waitFor()
  t.same(await entries(page), [
    `app: App Kitchen Display moved the order from pending to confirmed ${await page.locator('time').first().innerText()}`,
    `customer: Customer Ana Customer placed order #${order.orderNumber} ${await page.locator('time').nth(1).innerText()}`
  ], 'the app and the customer, by name')

  // the staff member moves it on, with the keyboard
  await page.getByRole('button', { name: 'Mark as preparing' }).focus()
  await page.keyboard.press('Enter')
  await page.getByText('Order moved to preparing').waitFor()
  await timeline.getByText('Rosa Marquez').waitFor()
  const three = await entries(page)
  t.equal(three.length, 3)
  t.match(three[0], /^staff: Staff Rosa Marquez moved the order from confirmed to preparing/, 'the staff member, newest first')
  t.match(three[1], /^app: App Kitchen Display moved the order from pending to confirmed/)
  t.match(three[2], /^customer: Customer Ana Customer placed order/)
  await check(t, page, 'activity-order-timeline-1280')

  // the whole log, from the admin's navigation
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Activity' }).click()
  await page.waitForURL(/\/admin\/activity$/)
  await page.getByRole('list', { name: 'Activity, page 1' }).waitFor()
  t.equal((await entries(page)).length, 25, 'a page of 25')
  t.match((await entries(page))[0], /^staff: Staff Rosa Marquez moved the order from confirmed to preparing · Orders: ord_/)
  t.match((await entries(page))[1], /^staff: Staff Rosa Marquez changed the product’s price · Products: prod_/)
  await check(t, page, 'activity-all-1280')
  await page.getByRole('button', { name: 'Older →' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('list', { name: 'Activity, page 2' }).waitFor()
  const older = await entries(page)
  t.ok(older.some((entry) => /^customer: Customer Ana Customer placed order/.test(entry)), 'the older page reaches the order')
  t.ok(older.some((entry) => /^staff: Staff Rosa Marquez installed the app “Kitchen Display”/.test(entry)), 'and the install')
  await page.getByRole('button', { name: '← Newer' }).click()
  await page.getByRole('list', { name: 'Activity, page 1' }).waitFor()

  await page.getByLabel('Who').selectOption('app')
  await page.waitForURL(/actor=app/)
  await page.getByRole('list', { name: 'Activity, page 1' }).waitFor()
  await page.getByTestId('activity-entry').filter({ hasText: 'Kitchen Display' }).first().waitFor()
  t.same((await entries(page)).map((entry) => entry.split(':')[0]), ['app'], 'only the app’s change')
  await check(t, page, 'activity-by-app-1280')
  await page.getByLabel('What').selectOption('charge')
  await page.getByText('Nothing matches these filters.').waitFor()
  await check(t, page, 'activity-empty-1280')

  await t.test('at 390 px', async (t) => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await narrow.goto(`${base}/login?next=${encodeURIComponent(`/admin/orders/${order.id}`)}`)
    await logIn(narrow, merchant.email, 'correct-horse')
    await narrow.getByRole('list', { name: `Timeline of order #${order.orderNumber}` }).waitFor()
    t.equal((await entries(narrow)).length, 3)
    await check(t, narrow, 'activity-order-timeline-390')
    await narrow.goto(`${base}/admin/activity?resource=order`)
    await narrow.getByRole('list', { name: 'Activity, page 1' }).waitFor()
    t.same((await entries(narrow)).map((entry) => entry.split(':')[0]), ['staff', 'app', 'customer'])
    await check(t, narrow, 'activity-orders-390')
  })
})
