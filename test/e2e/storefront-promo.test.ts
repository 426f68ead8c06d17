import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { build, listen, registerUser, REVIEWER_ENV } from '../helper.ts'
import { createProduct } from '../plugins/commerce/fixtures.ts'
import { startAppServer, installHookApp } from '../plugins/checkout-hooks/fixtures.ts'
import { businessSlug } from '../plugins/storefront/fixtures.ts'
import { launch, screenshot } from './browser.ts'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical violations on the page (as storefront-checkout.test.ts runs it). */
async function axeViolations (page: Page): Promise<string[]> {
  await page.evaluate(AXE)
  const violations = await page.evaluate(async () => {
    interface Violation { id: string, impact: string, nodes: Array<{ target: string[] }> }
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run(document)
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }))
  })
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`)
}

const DISCOUNT_REASON = 'Bakery club: 1.00 off'

t.test('a customer applies the merchant\'s promo code at checkout, beside the app\'s discount', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  await listen(app)
  const provider = await startAppServer(t, {
    '/base/discounts': () => ({ json: { discount: 100, reason: DISCOUNT_REASON } })
  })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Rosa’s Bakery' })
  const slug = await businessSlug(app, merchant)
  await installHookApp(app, developer, merchant, provider.url, [{ hookPoint: 'order.calculate_discounts', url: '/discounts' }], ['write_discounts'])
  const loaf = await createProduct(app, merchant, { name: 'Country Loaf', price: 650, stock: 40 })
  for (const payload of [{ code: 'SPRING10', percentOff: 10 }, { code: 'WINTER', percentOff: 20, active: false }]) {
    const created = await app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: merchant.auth, payload })
    t.equal(created.statusCode, 201)
  }
  const storeUrl = app.origins.storeUrl(slug)
  const browser = await launch(t)

  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t: Test) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      t.teardown(() => context.close())
      const page = await context.newPage()
      await page.goto(`${storeUrl}/products/${loaf.slug as string}`)
      await page.getByLabel('Quantity', { exact: true }).fill('4')
      await page.getByRole('button', { name: 'Add to cart' }).click()
      await page.getByText('Added 4 × Country Loaf to your cart.').waitFor()
      await page.goto(`${storeUrl}/checkout`)
      const summary = page.locator('[data-summary]')
      await summary.getByText(DISCOUNT_REASON).waitFor()

      // A switched-off code: its message beside the field, tied to it for screen readers
      const field = page.getByLabel('Promo code', { exact: true })
      await field.fill('winter')
      await page.getByRole('button', { name: 'Apply' }).click()
      const error = page.locator('#promoCode-error')
      await error.getByText('Promo code WINTER is not active').waitFor()
      t.equal(await field.getAttribute('aria-invalid'), 'true')
      t.match(await field.getAttribute('aria-describedby'), /promoCode-error/)
      t.notMatch(await summary.innerText(), /Promo/, 'the cart is priced without it')
      t.same(await axeViolations(page), [], 'refused code: no serious axe violation')
      await screenshot(page, `shop-promo-refused-${width}`)

      // A valid code by keyboard (Enter in the field applies, it does not place the order)
      await field.fill('spring10')
      await field.press('Enter')
      await summary.getByText('Promo SPRING10').waitFor()
      t.match(await summary.innerText(), /Promo SPRING10\s+−\$2\.60/, '10% of 26.00')
      t.match(await summary.innerText(), /App discounts\s+−\$1\.00/, 'the app\'s discount beside it')
      t.match(await summary.innerText(), DISCOUNT_REASON, 'with its reason')
      t.match(await summary.innerText(), /Total\s+\$25\.40/, '26.00 − 2.60 − 1.00 + 3.00 delivery')
      t.equal(await error.innerText(), '', 'the earlier message is gone')
      t.equal(await field.getAttribute('aria-invalid'), null)
      t.match(await page.locator('#promoCode-status').innerText(), /Promo SPRING10 applied/)
      t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling')
      t.same(await axeViolations(page), [], 'applied code: no serious axe violation')
      await screenshot(page, `shop-promo-applied-${width}`)

      // The order carries the code; the merchant sees it
      await page.getByRole('radio', { name: /Pick up/ }).check()
      await page.getByLabel('Name', { exact: true }).fill('Tomás Ortega')
      await page.getByRole('radio', { name: /Cash/ }).check()
      await page.getByRole('button', { name: 'Place order' }).click()
      await page.waitForURL(/\/orders\/ord_/)
      const orderId = new URL(page.url()).pathname.split('/').at(-1) as string
      const order = (await app.inject({ url: `/merchant/orders/${orderId}`, headers: merchant.auth })).json()
      t.match(order, { promoCode: 'SPRING10', promoDiscount: 260, discount: 360, deliveryFee: 0, amount: 2240 })
    })
  }
})
