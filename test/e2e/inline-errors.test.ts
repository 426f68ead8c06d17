import t from 'tap'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, REVIEWER_ENV } from '../helper.ts'
import { launch, logIn, screenshot } from './browser.ts'

/** #29 item 5: forms mark the field at fault with a plain sentence, from the contract and by the server's code and path. */
t.test('inline errors on Create app and in the theme editor', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const browser = await launch(t)

  await t.test('Create app: an event without its scope is marked as it is ticked; a refused URL is marked on its field', async (t) => {
    const developer = await registerUser(app, 'DEVELOPER')
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    await page.goto(`${base}/login?next=${encodeURIComponent('/portal/apps/new')}`)
    await logIn(page, developer.email, 'correct-horse')
    await page.getByLabel('Name').fill('Review Booster')
    await page.getByLabel('Description').fill('Shows your best reviews.')
    await page.getByLabel('read_business').check()
    await page.getByLabel('Redirect URL').fill('https://booster.example.com/callback#done')
    await page.getByLabel('review.created').check()
    const events = page.locator('#webhookEvents-error')
    await events.waitFor()
    t.match(await events.innerText(), /review\.created needs the read_reviews scope\. Tick the scope above, or untick the event\./, 'a plain sentence under the events, before sending')
    t.equal(await page.getByRole('button', { name: 'Create app' }).isDisabled(), true, 'Create waits until it is fixed')
    await screenshot(page, 'inline-create-app-events')
    await page.getByLabel('read_reviews').check()
    await events.waitFor({ state: 'detached' })

    // a rule only the server checks: its 400 names the field by path and code
    await page.getByRole('button', { name: 'Create app' }).click()
    const redirect = page.locator('#app-redirectUrl-error')
    await redirect.waitFor()
    t.equal(await redirect.innerText(), 'Must not contain a fragment.')
    t.equal(await page.getByLabel('Redirect URL').getAttribute('aria-invalid'), 'true')
    t.equal(await page.getByRole('alert').first().innerText(), 'Check the marked field.')
    t.notMatch(await page.locator('main').innerText(), /body\//, 'no raw API path on the screen')
    await screenshot(page, 'inline-create-app-server')
    await page.getByLabel('Redirect URL').fill('https://booster.example.com/callback')
    await redirect.waitFor({ state: 'detached' })
    await page.close()
  })

  await t.test('theme editor: a block setting out of range is marked as the merchant types, before Save', async (t) => {
    const developer = await registerUser(app, 'DEVELOPER')
    const { app: created, clientSecret } = await createApp(app, developer, { name: 'Review Wall', scopes: ['read_business'] })
    const manifest = {
      blocks: [{
        blockType: 'reviews', name: 'Reviews', renderUrl: 'https://reviews.example.com/block',
        settingsSchema: { type: 'object', properties: { maxReviews: { type: 'integer', minimum: 1, maximum: 5, title: 'Reviews shown' } }, additionalProperties: false },
        defaultConfig: { maxReviews: 3 }
      }]
    }
    t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })).statusCode, 200)
    await publishApp(app, developer, created.id)
    const merchant = await registerUser(app, 'MERCHANT')
    await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
    t.equal((await app.inject({ method: 'POST', url: '/merchant/pages', headers: merchant.auth, payload: { title: 'Reviews', slug: 'reviews' } })).statusCode, 201)

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await page.goto(`${base}/login?next=${encodeURIComponent('/admin/pages/reviews')}`)
    await logIn(page, merchant.email, 'correct-horse')
    await page.getByRole('button', { name: 'Add Reviews' }).click()
    const field = page.getByLabel('Reviews shown')
    await field.fill('9')
    const problem = page.getByTestId('block-settings').getByTestId('field-error')
    await problem.waitFor()
    t.equal(await problem.innerText(), 'Must be at most 5.', 'marked while typing')
    t.equal(await field.getAttribute('aria-invalid'), 'true')
    t.equal(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), true, 'Save waits for a valid value')
    t.ok(await page.getByTestId('block-invalid').isVisible(), 'the block is marked in the list too')
    await screenshot(page, 'inline-theme-editor')
    await field.fill('4')
    await problem.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Page saved').waitFor()
    await page.close()
  })
})
