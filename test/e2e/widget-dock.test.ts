import t from 'tap'
import { build, listen, registerUser, REVIEWER_ENV } from '../helper.ts'
import { businessSlug, installApp, putEmbeds } from '../plugins/storefront/fixtures.ts'
import { hostileServer, launch, screenshot, seriousAxeViolations } from './browser.ts'

/**
 * #29 item 4: the storefront's floating widget sits in the platform's dock, smaller on a narrow screen,
 * with a minimise control that works from the keyboard and is remembered per store in this browser.
 */
t.test('the floating widget dock: a minimise control, remembered per store, smaller at 390 px', async (t) => {
  const appOrigin = await hostileServer(t, (url) => url.pathname === '/widget'
    ? { type: 'text/html', body: '<!doctype html><body style="margin:0;padding:12px;font-family:system-ui"><b>Chat</b><p>How can we help?</p></body>' }
    : null)
  const app = await build(t, { env: REVIEWER_ENV })
  const slugs: string[] = []
  for (const name of ['Rosa’s Bakery', 'Tom’s Tools']) {
    const merchant = await registerUser(app, 'MERCHANT', { businessName: name })
    const shop = await installApp(app, merchant, {
      embeds: [{ embedType: 'chat', name: 'Chat with us', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: `${appOrigin}/widget` }]
    })
    t.equal((await putEmbeds(app, merchant, shop.installed.installationId, { chat: { enabled: true } })).statusCode, 200)
    slugs.push(await businessSlug(app, merchant))
  }
  await listen(app)
  const stores = slugs.map((slug) => `${app.origins.storefrontOrigin(slug)}/store/${slug}`)

  const browser = await launch(t)
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  t.teardown(() => context.close())
  const page = await context.newPage()
  const frame = page.locator('iframe.widget')
  const toggle = page.getByRole('button', { name: /Chat with us/ })

  await page.goto(stores[0])
  await page.frameLocator('iframe.widget').getByText('How can we help?').waitFor()
  const wide = await frame.boundingBox()
  t.ok(wide !== null && wide.width === 318 && wide.height === 220, `320 px dock at 1280 (${JSON.stringify(wide)})`)
  t.equal(await toggle.getAttribute('aria-expanded'), 'true')
  t.equal(await toggle.getAttribute('aria-label'), 'Minimise Chat with us')
  t.equal(await page.getByRole('complementary', { name: 'Chat with us' }).count(), 1, 'the dock is a named landmark')
  await screenshot(page, 'widget-dock-1280')

  await t.test('minimised with the keyboard, and still minimised on the next page of this store', async (t) => {
    await toggle.focus()
    await page.keyboard.press('Enter')
    await frame.waitFor({ state: 'hidden' })
    t.equal(await toggle.getAttribute('aria-expanded'), 'false')
    t.equal(await toggle.getAttribute('aria-label'), 'Open Chat with us')
    const pill = await toggle.boundingBox()
    t.ok(pill !== null && pill.height < 50 && pill.width < 200, `only a small pill is left (${JSON.stringify(pill)})`)
    t.same(await seriousAxeViolations(page), [], 'no serious axe violation')
    await screenshot(page, 'widget-dock-minimised-1280')
    await page.reload()
    await page.locator('.widget-dock[data-minimised]').waitFor()
    t.ok(await frame.isHidden(), 'remembered after a reload')
    await page.goto(stores[1])
    await page.frameLocator('iframe.widget').getByText('How can we help?').waitFor()
    t.ok(await frame.isVisible(), 'another store\'s widget is not minimised by it')
    await page.goto(stores[0])
    await page.locator('.widget-dock[data-minimised]').waitFor()
    await toggle.focus()
    await page.keyboard.press('Space')
    await frame.waitFor({ state: 'visible' })
    t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'Space opens it again')
  })

  await t.test('at 390 px the dock is smaller and covers less of the page', async (t) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const narrow = await frame.boundingBox()
    t.ok(narrow !== null && narrow.width <= 240 && narrow.height <= 150, `a smaller frame (${JSON.stringify(narrow)})`)
    const dock = await page.locator('.widget-dock').boundingBox()
    const share = dock === null ? 1 : (dock.width * dock.height) / (390 * 844)
    t.ok(share < 0.14, `covers ${Math.round(share * 100)} % of the screen (was 26 %)`)
    t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll')
    await screenshot(page, 'widget-dock-390')
  })
})
