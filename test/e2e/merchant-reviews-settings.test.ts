import t from 'tap'
import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { build, listen, registerUser } from '../helper.ts'
import { createProduct } from '../plugins/commerce/fixtures.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'

async function check (t: Test, page: Page, name: string): Promise<void> {
  t.same(await seriousAxeViolations(page), [], `${name}: no serious or critical axe violation`)
  t.ok(await fitsWidth(page), `${name}: no sideways scrolling`)
  await screenshot(page, name)
}

t.test('merchant Reviews and Settings in Chromium, at 1280 and 390 px', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Lena Books' })
  const slug = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json().slug as string
  const novel = await createProduct(app, merchant, { name: 'Novel' })
  const atlas = await createProduct(app, merchant, { name: 'Atlas' })
  await createProduct(app, merchant, { name: 'Poems' })
  const review = async (productId: string, rating: number, authorName: string, text: string) => {
    const response = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/reviews`, payload: { productId, rating, authorName, text } })
    t.equal(response.statusCode, 201, response.body)
  }
  await review(novel.id, 5, 'Ines', 'Could not put it down')
  await review(novel.id, 2, 'Tom', 'Too long')
  await review(atlas.id, 4, 'Kai', 'Beautiful maps')

  const browser = await launch(t)
  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } })
      await page.goto(`${base}/login?next=/admin/reviews`)
      await logIn(page, merchant.email, 'correct-horse')
      await page.getByTestId('reviews').waitFor()
      if (width === 1280) {
        t.match(await page.getByTestId('reviews').innerText(), /Kai\s+on Atlas[\s\S]*Tom\s+on Novel[\s\S]*Ines\s+on Novel/, 'newest first, with the product')
        t.equal(await page.getByRole('img', { name: '4 out of 5 stars' }).count(), 1, 'the rating in words')
      }
      await check(t, page, `merchant-reviews-${width}`)
      await page.getByLabel('Product').selectOption({ label: 'Poems' })
      await page.getByText('No reviews of this product yet.').waitFor()
      await check(t, page, `merchant-reviews-empty-${width}`)
      await page.getByLabel('Product').selectOption({ label: 'Novel' })
      await page.waitForURL(new RegExp(`productId=${novel.id as string}`))
      // the 390 px pass comes after the 1280 one deleted a review of the Novel
      await page.getByText(width === 1280 ? '2 reviews' : '1 review', { exact: true }).waitFor()

      if (width === 1280) {
        // delete with the confirm step, by keyboard
        await page.getByRole('button', { name: 'Delete the review by Tom' }).focus()
        await page.keyboard.press('Enter')
        await page.getByTestId('delete-confirm').waitFor()
        t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'focus on Cancel')
        await page.keyboard.press('Shift+Tab')
        await page.keyboard.press('Enter')
        await page.getByText('The review by Tom was deleted').waitFor()
        await page.getByText('1 review', { exact: true }).waitFor()
        t.equal((await app.inject({ url: `/merchant/reviews?productId=${novel.id as string}`, headers: merchant.auth })).json().total, 1, 'deleted through the API')
      }

      await page.getByRole(width === 390 ? 'button' : 'navigation', width === 390 ? { name: 'Menu' } : { name: 'Admin' }).click()
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click()
      await page.getByLabel('Business name').waitFor()
      await check(t, page, `merchant-settings-${width}`)
      await page.getByLabel('Business name').fill(`Lena Books ${width}`)
      await page.getByLabel('Type').selectOption('RETAIL')
      await page.getByLabel('Address').fill('2 Quay Street, Galway')
      await page.getByLabel('Contact email').fill('hello@lena.example')
      await page.getByLabel('Contact phone').fill('+353 91 000 000')
      await page.getByLabel('Contact phone').press('Enter')
      await page.getByText('Settings saved').waitFor()
      t.match((await app.inject({ url: '/merchant/business', headers: merchant.auth })).json(), {
        name: `Lena Books ${width}`, type: 'RETAIL', address: '2 Quay Street, Galway', email: 'hello@lena.example', phone: '+353 91 000 000', slug
      }, 'saved through PATCH /merchant/business; the slug stays')
      await page.goto(`${base}/admin`)
      await page.getByRole('heading', { name: `Lena Books ${width}` }).waitFor()
      t.pass('the admin shows the new name')
      await page.close()
    })
  }
})
