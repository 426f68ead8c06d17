import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { startServer, stopServer } from '../process.ts'
import { until } from '../wait.ts'
import { launch, logIn, screenshot, waitThroughReloads } from './browser.ts'

/*
 * The README's tour, on the README's start command: `npm start` (PORT=0, an empty DATA_DIR), then in
 * Chromium what the "Five minutes with the platform" section tells a newcomer to do.
 */

const MERCHANT = { email: 'merchant@demo.test', password: 'demo-password' }
const BLOCK = 'reviews-highlights'

/** A URL the start banner prints on the line starting with `label`. */
function bannerUrl (output: string, label: string): string {
  const match = new RegExp(`^ +${label} +(http://\\S+)`, 'm').exec(output)
  if (match === null) throw new Error(`no "${label}" in the banner: ${output}`)
  return match[1]
}

/** `check`'s first value other than undefined, polled with until() (test/wait.ts); after `timeoutMs`, a failure naming `what`. */
async function eventually<T> (what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const value = await until(async () => await check(), (found) => found !== undefined, timeoutMs)
  if (value === undefined) throw new Error(`timed out waiting for ${what}`)
  return value
}

t.test('first start: the tour of the README, in Chromium', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-tour-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  // first start on an empty DATA_DIR: database cluster, migrations, demo seed and an OAuth install;
  // a loaded 2-core machine needs a generous bound (see test/server/main.test.ts)
  const server = await startServer({ PORT: '0', DATA_DIR: dataDir })
  t.teardown(() => { server.child.kill('SIGKILL') })
  const output = server.output()
  const admin = bannerUrl(output, 'Admin')
  const storeUrl = bannerUrl(output, 'Store')
  const appUrl = bannerUrl(output, 'Reference app')
  t.match(storeUrl, /\/store\/demo-pizzeria$/, 'the banner names the demo store')
  const storeOrigin = new URL(storeUrl).origin
  // Node resolves no `<store>.localhost`: the customer API answers on the storefront's bare host too (DESIGN §21)
  const storeApi = storeOrigin.replace('//demo-pizzeria.', '//')
  t.not(storeApi, storeOrigin, 'the demo store has a host of its own')
  const appOrigin = new URL(appUrl).origin
  const slug = 'demo-pizzeria'

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  page.setDefaultTimeout(30_000)
  page.on('dialog', (dialog) => { void dialog.accept() })
  const shot = async (p: Page, name: string) => { await screenshot(p, `tour-${name}`) }

  // 1. The marketplace lists the reference app
  await page.goto(admin)
  await page.getByTestId('app-grid').waitFor()
  t.match(await page.getByTestId('app-grid').innerText(), /Reviews & Rewards \(reference app\)/, 'the reference app is listed')
  await shot(page, 'marketplace')

  // 2. The demo store: its block reads the App API, its widget is on, every picture loads
  const store = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  store.setDefaultTimeout(30_000)
  const imageStatuses = new Map<string, number>()
  store.on('response', (response) => { if (response.request().resourceType() === 'image') imageStatuses.set(response.url(), response.status()) })
  await store.goto(storeUrl)
  const block = store.frameLocator(`iframe.block[src^="${appOrigin}/blocks/${BLOCK}"]`)
  await block.getByText(/from \d+ reviews/).waitFor()
  t.match(await block.locator('body').innerText(), /What our customers say[\s\S]*from 6 reviews/, 'the block shows the demo reviews, read through the App API')
  await store.frameLocator(`iframe.widget[src^="${appOrigin}/embeds/loyalty-widget"]`).getByText('Loyalty rewards').waitFor()
  t.pass('the loyalty widget is on')
  await store.waitForLoadState('load')
  const images = await store.$$eval('img', (imgs) => imgs.map((img) => ({ src: img.currentSrc || img.src, loaded: img.complete && img.naturalWidth > 0 })))
  t.ok(images.length >= 4, `the store shows pictures (${images.length})`)
  for (const image of images) {
    t.ok(image.loaded, `${image.src} is drawn`)
    t.equal((await fetch(image.src.replace(storeOrigin, storeApi))).status, 200, `${image.src} answers 200`)
  }
  t.ok([...imageStatuses.values()].every((status) => status === 200), `every image the page loaded answered 200 (${imageStatuses.size})`)
  await shot(store, 'store')

  // 3. As the merchant: uninstall the reference app in the admin
  await page.goto(`${admin}/login?next=${encodeURIComponent('/admin/apps')}`)
  await logIn(page, MERCHANT.email, MERCHANT.password)
  const card = page.getByTestId('installed-reference-app')
  await card.waitFor()
  await shot(page, 'admin-installed')
  await card.getByRole('button', { name: 'Uninstall' }).click()
  await card.getByRole('button', { name: 'Uninstall app' }).click()
  await page.getByText('Reviews & Rewards (reference app) was uninstalled').waitFor()
  await card.waitFor({ state: 'detached' })
  t.pass('uninstalled: the app left the list')
  await store.reload()
  await store.locator('main').waitFor()
  t.equal(await store.locator(`iframe[src^="${appOrigin}"]`).count(), 0, 'its block and widget left the store')

  // 4. … and install it again from its listing: App URL → consent → the app exchanges the code
  await page.goto(`${admin}/apps/reference-app`)
  const install = page.getByRole('link', { name: 'Install' })
  await install.waitFor()
  t.match(await install.getAttribute('href'), new RegExp(`^${appOrigin}/\\?businessId=biz_\\w+&business=${slug}$`), 'Install goes to the app\'s App URL')
  t.match(await page.getByTestId('pricing-plans').innerText(), /Pro\s+\$9\.99 every 30 days[\s\S]*14-day free trial/, 'the listing shows the app\'s approved Pro plan')
  await shot(page, 'listing')
  await install.click()
  await page.getByTestId('consent').waitFor()
  t.match(new URL(page.url()).searchParams.get('code_challenge_method'), 'S256', 'the app started OAuth with PKCE')
  t.match(await page.getByTestId('requested-scopes').innerText(), /See reviews of your products/, 'the consent screen lists its scopes')
  await shot(page, 'consent')
  await page.getByRole('button', { name: 'Install app' }).click()
  await page.locator('[data-installed]').waitFor()
  t.equal(new URL(page.url()).origin, appOrigin, 'back at the app, which exchanged the code')
  await shot(page, 'app-installed')
  await page.getByRole('link', { name: 'Back to your admin' }).click()
  await card.waitFor()
  t.match(await card.innerText(), /See reviews of your products/, 'the admin shows it installed with its scopes')
  const state = () => JSON.parse(readFileSync(join(dataDir, 'example-app', 'installations.json'), 'utf8')) as {
    installations: Record<string, { installationId: string, businessSlug: string | null }>
    events: Record<string, Array<{ event: string, summary: string }>>
  }
  // the app keeps the demo developer's sandbox installation too (the demo installs it there before submitting)
  const stored = Object.entries(state().installations).find(([, i]) => i.businessSlug === slug)
  t.ok(stored, 'the app stored the new installation')
  const [businessId, installation] = stored ?? ['', { installationId: '', businessSlug: null }]

  // its widget back on
  await page.goto(`${admin}/admin/apps/${installation.installationId}/embeds`)
  await page.getByRole('switch', { name: /Loyalty widget/ }).check()
  await page.getByText('Loyalty widget is on').waitFor()

  // 5. Place its block on the home page in the theme editor, and save
  await page.goto(`${admin}/admin/pages/home`)
  await page.getByTestId('block-picker').waitFor()
  await page.getByRole('button', { name: 'Add Reviews highlights' }).click()
  const preview = page.frameLocator('iframe[title="Page preview"]')
  // the preview reloads as the block is added: its frame may be replaced while the test waits inside it
  await waitThroughReloads(preview.frameLocator(`iframe.block[src^="${appOrigin}/blocks/${BLOCK}"]`).getByText(/from \d+ reviews/))
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.getByText('Page saved').waitFor()
  await shot(page, 'theme-editor')
  await store.reload()
  await block.getByText('from 6 reviews').waitFor()
  await store.frameLocator(`iframe.widget[src^="${appOrigin}/embeds/loyalty-widget"]`).getByText('Loyalty rewards').waitFor()
  t.pass('the store shows the block and the widget again')
  await shot(store, 'store-again')

  // 6. A storefront order runs its hooks, and its webhook arrives verified
  const products = (await (await fetch(`${storeApi}/store/${slug}/api/products`)).json()).data as Array<{ id: string, slug: string, price: number }>
  // the dearest product: the fewest items over the free-delivery threshold, within the demo's stock
  const product = products.toSorted((a, b) => b.price - a.price)[0]
  if (product === undefined || product.price === 0) throw new Error('no product with a price')
  const cart = { items: [{ productId: product.id, quantity: Math.ceil(3000 / product.price) }], deliveryMethod: 'DELIVERY', locality: 'Centre' }
  const quote = await (await fetch(`${storeApi}/store/${slug}/api/checkout/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cart) })).json()
  t.ok(quote.subtotal >= 3000, `a cart of ${quote.subtotal as number}`)
  t.equal(quote.deliveryFee, 0, 'free delivery from 30.00 (checkout.shipping_rates)')
  t.equal(quote.appDiscount, Math.floor(quote.subtotal / 10), 'the loyalty discount (order.calculate_discounts)')
  t.match(quote.discountReasons, [/Loyalty reward/], 'with its reason')
  const wallet = (quote.paymentMethods as Array<{ id: string, name: string, provider: string }>).find((method) => method.name === 'Demo Wallet')
  t.match(wallet, { provider: 'app' }, 'its payment method (checkout.payment_methods)')
  // the same cart placed as the README's customer does it: Add to cart, Check out, Demo Wallet, Place order
  await store.goto(`${storeUrl}/products/${product.slug}`)
  await store.getByLabel('Quantity', { exact: true }).fill(String(cart.items[0].quantity))
  await store.getByRole('button', { name: 'Add to cart' }).click()
  await store.getByText(/^Added /).waitFor()
  await store.getByRole('link', { name: /^Cart/ }).click()
  await store.getByRole('link', { name: 'Check out' }).click()
  await store.getByLabel('Address', { exact: true }).fill('1 Tour Street')
  await store.getByLabel('Area or city', { exact: true }).fill('Centre')
  await store.getByLabel('Name', { exact: true }).fill('Tour Guest')
  await store.getByLabel('Email', { exact: true }).fill('guest@example.com')
  await store.getByRole('radio', { name: /Demo Wallet/ }).check()
  await store.getByRole('button', { name: 'Place order' }).click()
  await store.waitForURL(/\/orders\/ord_/)
  const order = { orderNumber: await store.locator('[data-order-number]').innerText(), amount: quote.total as number }
  t.match(await store.locator('.order-facts').innerText(), `${(quote.total / 100).toFixed(2)}`, 'placed at the quoted total')
  // checkout.create_payment: the app's payment page, as a link and as the QR code the README promises
  const paymentUrl = await store.getByRole('link', { name: 'Open the payment page' }).getAttribute('href') ?? ''
  t.match(paymentUrl, new RegExp(`^${appOrigin}/pay/inv_`), 'the app opened a payment (checkout.create_payment)')
  const qr = store.getByRole('img', { name: `QR code to pay for order ${order.orderNumber}` })
  await qr.waitFor()
  t.ok(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the confirmation shows its QR code')
  await shot(store, 'confirmation')
  const pay = await browser.newPage({ viewport: { width: 390, height: 800 } })
  await pay.goto(paymentUrl)
  await pay.getByRole('button', { name: /^Pay / }).click()
  await pay.locator('[data-paid]').waitFor()
  await screenshot(pay, 'tour-wallet-paid')
  await pay.close()
  const received = await eventually('order.created at the reference app', () => state().events[businessId]?.find((e) => e.event === 'order.created' && e.summary.includes(`#${String(order.orderNumber)}`)), 60_000)
  t.match(received.summary, `Order #${String(order.orderNumber)}: ${(order.amount / 100).toFixed(2)} (Demo Wallet)`, 'the verified webhook was recorded')
  await eventually('payment.completed at the reference app', () => state().events[businessId]?.find((e) => e.event === 'payment.completed'), 60_000)
  t.pass('and payment.completed after the wallet reported the payment')

  // 7. Its admin page shows the verified business (and the webhook it received)
  await page.goto(`${admin}/admin/apps/${installation.installationId}/pages/overview`)
  const frame = page.frameLocator('iframe[title="Reviews & Rewards"]')
  await frame.locator('[data-verified-business]').waitFor()
  t.match(await frame.locator('[data-verified-business]').innerText(), `Verified: business Demo Pizzeria (${businessId})`, 'the app verified the session token and read the business')
  await page.getByTestId('page-loading').waitFor({ state: 'detached' })
  t.equal(await page.getByTestId('page-error').count(), 0, 'the page said service:ready: no loading or error state left')
  const webhooks = frame.locator('section', { has: frame.getByRole('heading', { name: 'Latest webhooks received' }) }).locator('table')
  t.match(await webhooks.innerText(), new RegExp(`order\\.created[\\s\\S]*Order #${String(order.orderNumber)}`), 'the webhook is listed')
  t.match(await frame.locator('table.orders').innerText(), `#${String(order.orderNumber)}`, 'and the order in the recent orders (read with updatedSince)')
  await shot(page, 'admin-page')

  // 8. As the developer: the console shows the deliveries and the analytics; then ask for one more scope
  const dev = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  dev.setDefaultTimeout(30_000)
  await dev.goto(`${admin}/login?next=${encodeURIComponent('/portal')}`)
  await logIn(dev, 'developer@demo.test', 'demo-password')
  await dev.getByRole('link', { name: /Reviews & Rewards/ }).click()
  await dev.waitForURL(/\/portal\/apps\/app_\w+/)
  const portalApp = new URL(dev.url()).pathname.split('/').slice(0, 4).join('/')
  await dev.goto(`${admin}${portalApp}/deliveries`)
  await dev.getByTestId('deliveries').filter({ hasText: 'order.created' }).waitFor()
  t.match(await dev.getByTestId('deliveries').innerText(), /payment\.completed[\s\S]*order\.created/, 'the console lists the webhooks it delivered')
  await shot(dev, 'console-deliveries')
  await dev.goto(`${admin}${portalApp}/analytics`)
  await dev.getByTestId('analytics').and(dev.locator('[aria-busy="false"]')).waitFor()
  t.match(await dev.getByTestId('analytics').innerText(), /Installs/i, 'and its analytics')
  await shot(dev, 'console-analytics')
  await dev.goto(`${admin}${portalApp}/settings`)
  await dev.getByLabel('read_pages').check()
  await dev.getByRole('button', { name: 'Save settings' }).click()
  await dev.getByText(/The new scopes need a review/).waitFor()
  await dev.getByRole('tab', { name: 'Review' }).click()
  await dev.getByRole('button', { name: 'Submit for review' }).click()
  await dev.getByText(/Submitted: a reviewer will/).waitFor()
  t.pass('the developer submitted an update that adds read_pages')

  // 9. As the reviewer: approve it
  const reviewer = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  reviewer.setDefaultTimeout(30_000)
  await reviewer.goto(`${admin}/login?next=${encodeURIComponent('/reviewer')}`)
  await logIn(reviewer, 'reviewer@demo.test', 'demo-password')
  await reviewer.getByRole('link', { name: /Reviews & Rewards/ }).click()
  await reviewer.getByTestId('review-app').waitFor()
  t.match(await reviewer.getByTestId('review-scopes').innerText(), /See your site pages/, 'the added scope is shown')
  await shot(reviewer, 'review')
  await reviewer.getByRole('button', { name: 'Approve' }).click()
  await reviewer.waitForURL(/\/reviewer\?done=approved/)
  t.pass('approved')

  // 10. Back as the merchant: re-consent
  await page.goto(`${admin}/admin`)
  await page.getByRole('link', { name: 'Review permissions' }).click()
  await page.getByTestId('added-scopes').waitFor()
  t.match(await page.getByTestId('added-scopes').innerText(), /New\s+See your site pages/, 'the merchant is asked about the new scope')
  await shot(page, 'reconsent')
  await page.getByRole('button', { name: 'Approve new permissions' }).click()
  await page.getByText(/now has the new permissions/).waitFor()
  t.pass('the merchant approved it')

  await Promise.all([store.close(), dev.close(), reviewer.close()])
  await page.close()
  t.equal(await stopServer(server), 0, 'SIGTERM exits cleanly')
})
