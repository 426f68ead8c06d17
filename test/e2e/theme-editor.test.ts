import t, { type Test } from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Dialog, Page } from 'playwright-core'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, REVIEWER_ENV, uniqueEmail } from '../helper.ts'
import { launch, screenshot, waitThroughReloads } from './browser.ts'
import { startStudioApp, studioManifest } from './studio-app.ts'

/**
 * Answers a dialog: stay (dismiss) or leave (accept). One the browser closed itself first (a navigation
 * went ahead while it was up, on a busy machine) needs no answer: the test checks where the page ended up.
 */
function answer (dialog: Dialog, leave: boolean): void {
  (leave ? dialog.accept() : dialog.dismiss()).catch((error: Error) => {
    if (!/No dialog is showing/.test(error.message)) throw error
  })
}

/** 390 px: nothing may scroll sideways. */
async function noSideScroll (t: Test, page: Page, where: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }))
  t.ok(scroll <= width, `${where}: no horizontal scroll (${scroll} ≤ ${width})`)
}

t.test('a merchant installs from the listing, edits a page in the theme editor, switches embeds, re-consents and opens an admin page', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const studio = await startStudioApp(t, { base, storefrontSource: app.origins.storefrontSource })

  const developer = await registerUser(app, 'DEVELOPER')
  const redirectUrl = `${studio.origin}/callback`
  const { app: created, clientSecret } = await createApp(app, developer, {
    name: 'Studio Blocks', category: 'marketing', scopes: ['read_business'], redirectUrl, appUrl: `${studio.origin}/install`, webhookUrl: undefined
  })
  studio.client = { clientId: created.clientId, clientSecret, redirectUrl, scope: 'read_business' }
  t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: studioManifest(studio.origin) } })).statusCode, 200)
  await publishApp(app, developer, created.id)

  const browser = await launch(t)
  const addedScopes = ['read_pages', 'read_reviews']

  for (const [index, width] of [1200, 390].entries()) {
    await t.test(`at ${width} px`, async (t) => {
      const narrow = width < 500
      const shot = async (page: Page, name: string) => {
        await screenshot(page, `studio-${width}-${name}`)
        if (narrow) await noSideScroll(t, page, name)
      }
      const email = uniqueEmail('studio')
      const registered = (await app.inject({ method: 'POST', url: '/auth/register', payload: { email, password: 'correct-horse', name: 'Lena', role: 'MERCHANT', businessName: `Lena's Garden ${index}` } })).json()
      const merchant = { businessId: registered.businessId as string, auth: { authorization: `Bearer ${registered.token as string}` } }
      const page = await browser.newPage({ viewport: { width, height: 900 } })
      const dialogs: string[] = []
      // the editor's "unsaved changes" question is answered "stay"; anything else is accepted
      page.on('dialog', (dialog) => { dialogs.push(dialog.message()); answer(dialog, !/unsaved changes/.test(dialog.message())) })

      // 1. Install from the listing: appUrl → the app starts OAuth → consent → the app exchanges the code
      await page.goto(`${base}/login?next=${encodeURIComponent(`/apps/${created.slug}`)}`)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill('correct-horse')
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.getByRole('link', { name: 'Install' }).waitFor()
      t.match(await page.getByTestId('approved-scopes').innerText(), /See your business details/, 'scopes in plain words on the listing')
      await shot(page, 'listing')
      t.match(await page.getByRole('link', { name: 'Install' }).getAttribute('href'), new RegExp(`^${studio.origin}/install\\?businessId=${merchant.businessId}&business=`))
      await page.getByRole('link', { name: 'Install' }).click()
      await page.getByTestId('consent').waitFor()
      t.match(await page.getByTestId('requested-scopes').innerText(), /See your business details/)
      await shot(page, 'consent')
      await page.getByRole('button', { name: 'Install app' }).click()
      await page.locator('#installed').waitFor()
      t.match(await page.locator('body').innerText(), /Installed for Lena's Garden[\s\S]*Business matches/, 'the app exchanged the code and read the business with its token')
      const token = studio.tokens.get(merchant.businessId)
      t.ok(token !== undefined, 'a working token')
      const installs = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data
      t.match(installs, [{ status: 'ACTIVE', appId: created.id }])
      const installationId = installs[0].installationId as string

      // the listing now opens the installed app (its first admin page)
      await page.goto(`${base}/apps/${created.slug}`)
      await page.getByRole('link', { name: 'Open' }).waitFor()
      t.equal(await page.getByRole('link', { name: 'Open' }).getAttribute('href'), `/admin/apps/${installationId}/pages/reports`)

      // 2. Pages → a new page → the theme editor
      await page.goto(`${base}/admin/apps`)
      await page.getByTestId(`installed-${created.slug}`).waitFor()
      await shot(page, 'installed-apps')
      if (narrow) {
        t.equal(await page.locator('#admin-nav').isVisible(), false, 'the admin navigation is collapsed')
        await page.getByRole('button', { name: 'Menu' }).click()
      }
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Pages' }).click()
      await page.getByRole('heading', { name: 'New page' }).waitFor()
      await page.getByLabel('Title').fill('Spring sale')
      t.equal(await page.getByLabel('Address (slug)').inputValue(), 'spring-sale', 'the slug follows the title')
      await page.getByRole('button', { name: 'Create page' }).click()
      await page.getByTestId('block-picker').waitFor()
      await shot(page, 'editor-empty')
      t.match(await page.getByTestId('block-picker').innerText(), /Marketing[\s\S]*Hero banner[\s\S]*A big headline on a colour[\s\S]*Support[\s\S]*FAQ/i, 'grouped by category, with descriptions')
      const pickerItem = (name: string) => page.getByTestId('block-picker').locator('li').filter({ hasText: name })
      t.equal(await pickerItem('Hero banner').locator('svg.lucide-star').count(), 1, 'iconName "star" is drawn as a star')
      t.equal(await pickerItem('FAQ').locator('svg').count(), 0, 'an unknown iconName…')
      t.match(await pickerItem('FAQ').innerText(), /^S\s/, '…falls back to the app icon (its initial)')

      const preview = page.frameLocator('iframe[title="Page preview"]')
      const blocks = page.getByTestId('page-blocks').locator('li')
      await page.getByRole('button', { name: 'Add Hero banner' }).click()
      await page.getByRole('button', { name: 'Add FAQ' }).click()
      await t.resolves(blocks.nth(1).waitFor(), 'two blocks listed')
      await waitThroughReloads(preview.frameLocator('iframe.block').nth(1).locator('#headline').filter({ hasText: 'Questions?' }))
      t.equal(await preview.locator('iframe.block').count(), 2, 'the preview reloaded with both blocks')

      // reorder: drag at full width, the keyboard at 390 px
      if (narrow) {
        await blocks.nth(0).focus()
        await page.keyboard.press('Alt+ArrowDown')
      } else {
        const from = await blocks.nth(1).locator('[title="Drag to reorder"]').boundingBox()
        const to = await blocks.nth(0).boundingBox()
        if (from === null || to === null) throw new Error('no boxes')
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
        await page.mouse.down()
        await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 12 })
        await page.mouse.move(from.x + from.width / 2, to.y + 2, { steps: 4 })
        await page.mouse.up()
      }
      await blocks.nth(0).filter({ hasText: 'FAQ' }).waitFor()
      t.match(await page.getByTestId('page-blocks').innerText(), /FAQ[\s\S]*Hero banner/, 'FAQ now comes first')
      await waitThroughReloads(preview.frameLocator('iframe.block').nth(0).locator('#headline').filter({ hasText: 'Questions?' }))
      t.pass('the preview reloaded in the new order')

      // a setting edit reaches the block at once, before saving
      await blocks.filter({ hasText: 'Hero banner' }).click()
      await page.getByTestId('block-settings').getByLabel('Headline').fill('Tulips are here')
      const hero = preview.frameLocator('iframe.block').nth(1)
      await hero.locator('#headline').filter({ hasText: 'Tulips are here' }).waitFor()
      t.equal(await hero.locator('#updates').innerText(), '1', 'by SERVICE_BLOCK_UPDATE, not a reload')
      t.equal(await page.getByTestId('save-state').innerText(), 'Unsaved changes')
      t.equal((await app.inject({ url: '/merchant/pages/spring-sale', headers: merchant.auth })).json().blocks.length, 0, 'nothing saved yet')
      await page.locator('iframe[title="Page preview"]').scrollIntoViewIfNeeded()
      await shot(page, 'editor-preview')

      // leaving with unsaved changes asks first
      dialogs.length = 0
      await page.getByRole('link', { name: '← Pages' }).click()
      t.match(dialogs, [/unsaved changes/], 'asked before leaving')
      t.match(page.url(), /\/admin\/pages\/spring-sale$/, 'and stayed')

      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByText('Page saved').waitFor()
      const saved = (await app.inject({ url: '/merchant/pages/spring-sale', headers: merchant.auth })).json()
      t.match(saved.blocks, [{ blockType: 'faq' }, { blockType: 'hero', settings: { headline: 'Tulips are here' } }])
      const store = await browser.newPage({ viewport: { width, height: 900 } })
      const business = (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json()
      await store.goto(`${business.storefrontUrl}/spring-sale`)
      await store.frameLocator('iframe.block').nth(1).locator('#headline').filter({ hasText: 'Tulips are here' }).waitFor()
      t.equal(await store.frameLocator('iframe.block').nth(0).locator('#headline').innerText(), 'Questions?', 'the storefront shows both, in order')
      await shot(store, 'storefront')
      await store.close()

      // the browser's Back asks too: "stay" keeps the editor and its unsaved edit at the same URL…
      const headline = page.getByTestId('block-settings').getByLabel('Headline')
      await headline.fill('Tulips all week')
      const stillEditing = async (what: string) => {
        t.match(page.url(), /\/admin\/pages\/spring-sale$/, `${what}: same URL`)
        t.equal(await headline.inputValue(), 'Tulips all week', `${what}: the unsaved edit is still there`)
        t.equal(await page.getByTestId('save-state').innerText(), 'Unsaved changes')
      }
      // the dialog was answered once the page runs script again
      const asking = async (go: () => Promise<unknown>) => {
        dialogs.length = 0
        const asked = page.waitForEvent('dialog')
        await go()
        await asked
        // two frames drawn: the page has run its popstate and navigate handlers (an event, not a time)
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
      }
      await asking(() => page.evaluate(() => { history.back() }))
      t.match(dialogs, [/unsaved changes/], 'Back asked before leaving')
      await stillEditing('after Back')
      // …and so does the browser's own Back (browser-initiated, not script)
      const cdp = await page.context().newCDPSession(page)
      const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory')
      await asking(() => cdp.send('Page.navigateToHistoryEntry', { entryId: entries[currentIndex - 1].id }))
      t.match(dialogs, [/unsaved changes/], 'the browser\'s own Back asked too')
      await stillEditing('after the browser\'s Back')
      await cdp.detach()
      // …and "leave" leaves
      page.removeAllListeners('dialog')
      page.on('dialog', (dialog) => { dialogs.push(dialog.message()); answer(dialog, true) })
      dialogs.length = 0
      await page.evaluate(() => { history.back() })
      await page.getByRole('heading', { name: 'Pages', exact: true }).waitFor()
      t.match(dialogs, [/unsaved changes/], 'asked, and left when told to')
      t.match(page.url(), /\/admin\/pages$/, 'on the pages list')
      page.removeAllListeners('dialog')
      page.on('dialog', (dialog) => { dialogs.push(dialog.message()); answer(dialog, !/unsaved changes/.test(dialog.message())) })
      // Forward asks the same way: back into the editor (nothing to save), out by its link, Back, an edit, Forward
      await page.evaluate(() => { history.forward() })
      await blocks.filter({ hasText: 'Hero banner' }).click()
      t.equal(await page.getByTestId('save-state').innerText(), 'All changes saved', 'the edit was dropped on leaving')
      t.equal(await headline.inputValue(), 'Tulips are here', 'the saved headline')
      await page.getByRole('link', { name: '← Pages' }).click()
      await page.getByRole('heading', { name: 'Pages', exact: true }).waitFor()
      await page.evaluate(() => { history.back() })
      await blocks.filter({ hasText: 'Hero banner' }).click()
      await headline.fill('Tulips all week')
      await asking(() => page.evaluate(() => { history.forward() }))
      t.match(dialogs, [/unsaved changes/], 'Forward asked before leaving')
      await stillEditing('after Forward')
      await page.getByRole('button', { name: 'Discard' }).click()
      await page.getByText('Changes discarded').waitFor()

      // Chromium lets a page cancel its own Back button only after user input. A tab with none: every step
      // below is raw CDP script (Playwright's own evaluate and locators count as user gestures). The browser's
      // Back cannot be cancelled there, so the guard asks after the fact, keeps the router from seeing it and
      // returns to the editor's entry; the editor never unmounted, the edit is still there.
      const quiet = await browser.newPage({ viewport: { width, height: 900 } })
      quiet.on('dialog', (dialog) => { dialogs.push(dialog.message()); answer(dialog, false) })
      const session = await page.evaluate(() => localStorage.getItem('app-platform.session') ?? '')
      await quiet.addInitScript(`localStorage.setItem('app-platform.session', ${JSON.stringify(session)})`)
      const cdpQuiet = await quiet.context().newCDPSession(quiet)
      const inPage = async (expression: string): Promise<unknown> => {
        const answer = await cdpQuiet.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })
        if (answer.exceptionDetails !== undefined) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text)
        return answer.result.value
      }
      const until = async (condition: string) => await inPage(`new Promise((resolve, reject) => {
        const started = Date.now()
        const check = () => (${condition}) ? resolve(true) : Date.now() - started > 10000 ? reject(new Error(${JSON.stringify(condition)})) : setTimeout(check, 50)
        check()
      })`)
      await quiet.goto(`${base}/admin/pages`)
      await until('document.querySelector(\'a[aria-label="Edit Spring sale"]\')')
      await inPage('document.querySelector(\'a[aria-label="Edit Spring sale"]\').click()')
      await until('[...document.querySelectorAll(\'[data-block-id]\')].some((li) => li.textContent.includes(\'Hero banner\'))')
      await inPage('[...document.querySelectorAll(\'[data-block-id]\')].find((li) => li.textContent.includes(\'Hero banner\')).click()')
      await until('document.querySelector(\'[data-testid="block-settings"] input[type="text"]\')')
      await inPage('(() => { const input = document.querySelector(\'[data-testid="block-settings"] input[type="text"]\'); input.value = \'Tulips, quietly\'; input.dispatchEvent(new Event(\'input\', { bubbles: true })) })()')
      await until('document.querySelector(\'[data-testid="save-state"]\').textContent === \'Unsaved changes\'')
      t.equal(await inPage('navigator.userActivation.hasBeenActive'), false, 'no user activation in this tab')
      await inPage('navigation.addEventListener(\'navigate\', (event) => { window.backWasCancelable = event.cancelable }, { once: true })')
      const before = await cdpQuiet.send('Page.getNavigationHistory')
      dialogs.length = 0
      const asked = quiet.waitForEvent('dialog')
      await cdpQuiet.send('Page.navigateToHistoryEntry', { entryId: before.entries[before.currentIndex - 1].id })
      await asked
      await until('location.pathname.endsWith(\'/spring-sale\') && window.backWasCancelable !== undefined')
      t.equal(await inPage('window.backWasCancelable'), false, 'Chromium did not let the page cancel this Back')
      t.match(dialogs, [/unsaved changes/], 'an uncancelable Back asked too')
      t.equal((await cdpQuiet.send('Page.getNavigationHistory')).currentIndex, before.currentIndex, 'back on the editor\'s entry')
      t.equal(await inPage('document.querySelector(\'[data-testid="block-settings"] input[type="text"]\').value'), 'Tulips, quietly', 'the unsaved edit is still there')
      t.equal(await inPage('document.querySelector(\'[data-testid="save-state"]\').textContent'), 'Unsaved changes')
      // "leave" leaves: the router gets the popstate
      quiet.removeAllListeners('dialog')
      quiet.on('dialog', (dialog) => { dialogs.push(dialog.message()); answer(dialog, true) })
      dialogs.length = 0
      await cdpQuiet.send('Page.navigateToHistoryEntry', { entryId: before.entries[before.currentIndex - 1].id })
      await until('location.pathname === \'/admin/pages\' && document.querySelector(\'h1\')?.textContent === \'Pages\'')
      t.match(dialogs, [/unsaved changes/], 'asked, and left when told to')
      await cdpQuiet.detach()
      await quiet.close()

      // 3. Embeds: on, its settings saved, then off; the preview follows
      await page.goto(`${base}/admin/apps/${installationId}/embeds`)
      const toggle = page.getByRole('switch', { name: /Chat bubble/ })
      await toggle.check()
      await page.getByText('Chat bubble is on').waitFor()
      const widget = page.frameLocator('iframe[title="Store preview"]').frameLocator('iframe.widget')
      await waitThroughReloads(widget.locator('#greeting').filter({ hasText: 'Hi!' }))
      t.pass('the widget shows its default greeting')
      await shot(page, 'embeds-on')
      const chat = page.getByTestId('embed-chat')
      await chat.getByText('Settings', { exact: true }).click()
      await chat.getByLabel('Greeting').fill('Welcome to the garden')
      await chat.getByRole('button', { name: 'Save embed settings' }).click()
      await page.getByText('Chat bubble settings saved').waitFor()
      await waitThroughReloads(widget.locator('#greeting').filter({ hasText: 'Welcome to the garden' }))
      t.pass('the preview shows the saved greeting')
      t.match((await app.inject({ url: `/merchant/installations/${installationId}/embeds`, headers: merchant.auth })).json().embeds, [{ embedType: 'chat', enabled: true, settings: { greeting: 'Welcome to the garden' } }], 'saved on the server')
      await shot(page, 'embeds-settings')
      await page.reload()
      await chat.getByText('Settings', { exact: true }).click()
      t.equal(await chat.getByLabel('Greeting').inputValue(), 'Welcome to the garden', 'kept after a reload')
      t.ok(await toggle.isChecked(), 'and still on')
      await toggle.uncheck()
      await page.getByText('Chat bubble is off').waitFor()
      await page.frameLocator('iframe[title="Store preview"]').locator('h1').waitFor()
      t.equal(await page.frameLocator('iframe[title="Store preview"]').locator('iframe.widget').count(), 0, 'the widget left the preview')
      t.match((await app.inject({ url: `/merchant/installations/${installationId}/embeds`, headers: merchant.auth })).json().embeds, [{ embedType: 'chat', enabled: false }])

      // 4. Re-consent to an added scope, on the consent screen's view
      const added = addedScopes[index]
      await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { scopes: ['read_business', ...addedScopes.slice(0, index + 1)] } })
      await publishApp(app, developer, created.id)
      await page.goto(`${base}/admin`)
      await page.getByRole('link', { name: 'Review permissions' }).click()
      await page.getByTestId('added-scopes').waitFor()
      t.match(await page.getByTestId('added-scopes').innerText(), added === 'read_pages' ? /New\s+See your site pages/ : /New\s+See reviews of your products/)
      t.match(await page.getByTestId('granted-scopes').innerText(), /See your business details/)
      await shot(page, 'reconsent')
      await page.getByRole('button', { name: 'Approve new permissions' }).click()
      await page.getByText('Studio Blocks now has the new permissions').waitFor()
      const after = (await app.inject({ url: '/merchant/installations', headers: merchant.auth })).json().data[0]
      t.ok(after.grantedScopes.includes(added) && after.needsReConsent === false, 'granted in place')
      const path = added === 'read_pages' ? '/app-api/pages' : '/app-api/reviews'
      t.equal((await app.inject({ url: path, headers: { authorization: `Bearer ${token?.accessToken ?? ''}` } })).statusCode, 200, 'the same token now has the scope')

      // 5. The admin page: its nav item has its icon; it resizes itself and shows a toast
      // (collapsed behind Menu at 390 px)
      const navItem = page.locator('#admin-nav').getByRole('link', { name: 'Reports', includeHidden: true })
      t.equal(await navItem.locator('svg.lucide-star').count(), 1, 'the nav draws the page\'s "star" icon')
      t.equal(await navItem.textContent(), 'Reports', 'and no letters of its name')
      if (narrow) {
        await page.getByRole('button', { name: 'Menu' }).click()
        await navItem.waitFor()
        await shot(page, 'admin-nav')
        await page.getByRole('button', { name: 'Close menu' }).click()
      }
      await page.getByRole('link', { name: 'Open', exact: true }).click()
      const frame = page.frameLocator('iframe[title="Reports"]')
      await frame.locator('#init').filter({ hasText: `Hello Lena's Garden ${index}` }).waitFor()
      await page.waitForFunction(() => Number.parseInt((document.querySelector('iframe[title="Reports"]') as HTMLIFrameElement).style.height) > 800)
      const height = await page.$eval('iframe[title="Reports"]', (el) => Number.parseInt((el as HTMLIFrameElement).style.height))
      t.ok(height > 800 && height <= 4000, `the frame follows its content (${height} px)`)
      t.equal(await page.getByTestId('page-loading').count(), 0, 'service:ready ended the loading state')
      await frame.locator('#toast').click()
      await page.getByTestId('toast').filter({ hasText: 'Report exported' }).waitFor()
      await frame.locator('#next').click()
      t.match(page.url(), /\/pages\/reports$/, 'a navigate to a page the app does not have is ignored')
      const chargeLookup = page.waitForResponse((response) => response.url().endsWith('/merchant/charges/sub_notours'))
      await frame.locator('#charge').click()
      t.equal((await chargeLookup).status(), 404, 'the admin asks whether the charge is this installation\'s')
      t.match(page.url(), /\/pages\/reports$/, 'and opens no approval screen for a charge that is not')
      await shot(page, 'admin-page')
      await page.close()
    })
  }
})

t.test('an install the app has not finished, and an admin page that never sends service:ready', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const studio = await startStudioApp(t, { base, storefrontSource: app.origins.storefrontSource })
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'], redirectUrl: `${studio.origin}/callback` })
  studio.client = { clientId: created.clientId, clientSecret, redirectUrl: `${studio.origin}/callback`, scope: 'read_business' }
  // a page on an origin that answers but never speaks the bridge, and one whose server never answers
  const stuck = createServer(() => {}).listen(0, '127.0.0.1')
  await once(stuck, 'listening')
  t.teardown(() => { stuck.closeAllConnections(); stuck.close() })
  const stuckOrigin = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}`
  const manifest = { adminPages: [{ pageId: 'silent', title: 'Silent', renderUrl: `${studio.origin}/widget` }, { pageId: 'stuck', title: 'Stuck', renderUrl: `${stuckOrigin}/admin` }] }
  t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })).statusCode, 200)
  const merchant = await registerUser(app, 'MERCHANT')
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, studio.client)
  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } })
  await page.goto(`${base}/login`)
  await page.evaluate(([token, user]) => { localStorage.setItem('app-platform.session', JSON.stringify({ token, user })) }, [merchant.token, { id: merchant.userId, email: merchant.email, name: 'M', role: 'MERCHANT', businessId: merchant.businessId }] as const)
  // a second app the merchant approved, whose code the app never exchanges
  const { app: slow } = await createApp(app, developer, { name: 'Slow Starter', scopes: ['read_business'] })
  await publishApp(app, developer, slow.id)
  t.equal((await app.inject({ method: 'POST', url: '/oauth/authorize', headers: merchant.auth, payload: { client_id: slow.clientId, redirect_uri: slow.redirectUrl, response_type: 'code', decision: 'approve' } })).statusCode, 200)
  await page.goto(`${base}/admin/apps`)
  await page.getByTestId(`pending-${slow.slug as string}`).waitFor()
  t.match(await page.getByTestId(`pending-${slow.slug as string}`).innerText(), /Slow Starter\s+Finishing install…/, 'shown at once, said plainly')
  await screenshot(page, 'studio-admin-finishing-install')

  // loaded without service:ready: shown, not reported as down (DESIGN §21: only load and service:init are the spec's)
  await page.goto(`${base}/admin/apps/${installed.installationId}/pages/silent`)
  await page.frameLocator('iframe[title="Silent"]').locator('body').waitFor()
  await page.getByTestId('page-loading').waitFor({ state: 'detached' })
  t.equal(await page.getByTestId('page-error').count(), 0, 'a page that loads is not reported as down')
  await screenshot(page, 'studio-admin-page-silent')

  // never loaded: the error state after READY_TIMEOUT_MS (5 s; the bound below only ends a hang)
  await page.goto(`${base}/admin/apps/${installed.installationId}/pages/stuck`)
  await page.getByTestId('page-loading').waitFor()
  await page.getByTestId('page-error').waitFor({ timeout: 30_000 })
  t.match(await page.getByTestId('page-error').innerText(), /did not answer/)
  await screenshot(page, 'studio-admin-page-error')
})

t.test('a developer previews their block on their sandbox, as merchants will see it', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const studio = await startStudioApp(t, { base, storefrontSource: app.origins.storefrontSource })
  const email = uniqueEmail('dev')
  const registered = (await app.inject({ method: 'POST', url: '/auth/register', payload: { email, password: 'correct-horse', name: 'Dana', role: 'DEVELOPER' } })).json()
  const developer = { auth: { authorization: `Bearer ${registered.token as string}` } }
  // a draft app, never reviewed: the sandbox is where its developer sees it
  const session = { ...developer, token: registered.token, userId: registered.user.id, businessId: registered.businessId, email }
  const { app: created, clientSecret } = await createApp(app, session, {
    name: 'Studio Draft', scopes: ['read_business'], redirectUrl: `${studio.origin}/callback`
  })
  studio.client = { clientId: created.clientId, clientSecret, redirectUrl: `${studio.origin}/callback`, scope: 'read_business' }
  t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: studioManifest(studio.origin) } })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).statusCode, 201)

  const browser = await launch(t)
  for (const width of [1200, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } })
    await page.goto(`${base}/login?next=/portal`)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('correct-horse')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByTestId('sandbox-links').waitFor()
    await page.getByTestId('sandbox-links').getByRole('link', { name: 'Store ↗' }).waitFor()
    await screenshot(page, `studio-${width}-portal-sandbox`)
    await page.getByRole('link', { name: 'Pages & theme editor' }).click()
    // the business name follows its own request: wait for it, not only for the badge
    await page.getByTestId('sandbox-badge').filter({ hasText: /Sandbox admin · Dana's sandbox/ }).waitFor()
    t.pass('the sandbox badge names the sandbox business')
    await page.getByTestId('pages').getByRole('link', { name: /^Edit / }).first().click()
    await page.getByRole('button', { name: 'Add Hero banner' }).click()
    const preview = page.frameLocator('iframe[title="Page preview"]')
    await waitThroughReloads(preview.frameLocator('iframe.block').last().locator('#headline').filter({ hasText: 'Welcome' }))
    t.pass(`at ${width} px: the block renders in the sandbox preview`)
    await page.locator('iframe[title="Page preview"]').scrollIntoViewIfNeeded()
    await screenshot(page, `studio-${width}-sandbox-editor`)
    if (width < 500) await noSideScroll(t, page, 'sandbox editor')
    await page.close()
  }
})

t.test('a merchant deletes a page after a confirm step, by keyboard', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const browser = await launch(t)
  for (const width of [1200, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const merchant = await registerUser(app, 'MERCHANT')
      for (const [title, slug] of [['About us', 'about'], ['Spring sale', 'spring-sale']]) {
        t.equal((await app.inject({ method: 'POST', url: '/merchant/pages', headers: merchant.auth, payload: { title, slug } })).statusCode, 201)
      }
      // every business starts with a home page: this list is about these two
      t.equal((await app.inject({ method: 'DELETE', url: '/merchant/pages/home', headers: merchant.auth })).statusCode, 204)
      const page = await browser.newPage({ viewport: { width, height: 800 } })
      await page.goto(`${base}/login`)
      await page.evaluate(([token, user]) => { localStorage.setItem('app-platform.session', JSON.stringify({ token, user })) }, [merchant.token, { id: merchant.userId, email: merchant.email, name: 'M', role: 'MERCHANT', businessId: merchant.businessId }] as const)
      await page.goto(`${base}/admin/pages`)
      const list = page.getByTestId('pages')
      await list.getByRole('link', { name: 'About us', exact: true }).waitFor()
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '')

      // Delete opens the confirm step with focus on Cancel; Escape closes it and focus returns to Delete
      await list.getByRole('button', { name: 'Delete About us' }).focus()
      await page.keyboard.press('Enter')
      const confirm = page.getByRole('alertdialog', { name: 'Delete About us?' })
      await confirm.waitFor()
      t.match(await confirm.innerText(), /Its blocks go with it and \/about stops working/, 'says what goes')
      t.equal(await focused(), 'Cancel', 'focus on Cancel')
      await screenshot(page, `studio-${width}-pages-delete-confirm`)
      if (width < 500) await noSideScroll(t, page, 'delete confirm')
      await page.keyboard.press('Escape')
      await confirm.waitFor({ state: 'detached' })
      t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete About us', 'Escape closes it, focus back on Delete')
      t.equal((await app.inject({ url: '/merchant/pages/about', headers: merchant.auth })).statusCode, 200, 'nothing deleted')

      // Enter, Shift+Tab to "Delete page", Enter: gone from the list and the server
      await page.keyboard.press('Enter')
      await confirm.waitFor()
      await page.keyboard.press('Shift+Tab')
      t.equal(await focused(), 'Delete page')
      await page.keyboard.press('Enter')
      await page.getByRole('status').filter({ hasText: 'About us deleted' }).waitFor()
      await list.getByRole('link', { name: 'About us', exact: true }).waitFor({ state: 'detached' })
      t.equal((await app.inject({ url: '/merchant/pages/about', headers: merchant.auth })).statusCode, 404, 'deleted on the server')
      t.equal(await list.locator('li').count(), 1, 'the other page stays')
      t.equal(await focused(), 'Pages', 'focus on the heading, above the notice')
      await screenshot(page, `studio-${width}-pages-deleted`)

      // a page deleted meanwhile (another tab): the API's answer, shown in the step
      t.equal((await app.inject({ method: 'DELETE', url: '/merchant/pages/spring-sale', headers: merchant.auth })).statusCode, 204)
      await list.getByRole('button', { name: 'Delete Spring sale' }).click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete page' }).click()
      t.match(await page.getByRole('alertdialog').getByRole('alert').innerText(), /not found/i, 'the error is shown')
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()

      // and with no page left, the empty state
      await page.reload()
      await page.getByTestId('empty').filter({ hasText: 'No pages yet' }).waitFor()
      t.pass('empty state once all are gone')
      await page.close()
    })
  }
})
