import t from 'tap'
import { build, createApp, gate, listen, registerUser } from '../helper.ts'
import { fitsWidth, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'

/**
 * #31: the console's API versions tab: what the app's installs are pinned to, what its calls used in
 * the last 30 days per version, the upgrade of the sandbox (by keyboard) and the changelog.
 */
t.test('the console shows the app\'s API versions and upgrades its sandbox', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { name: 'Money Mover', scopes: ['read_orders'] })
  const install = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })
  t.equal(install.statusCode, 201)
  const auth = { authorization: `Bearer ${install.json().accessToken as string}` }
  t.equal((await app.inject({ method: 'GET', url: '/app-api/orders', headers: auth })).statusCode, 200)
  t.equal((await app.inject({ method: 'GET', url: '/app-api/orders', headers: { ...auth, 'app-api-version': '2026-12' } })).statusCode, 200)

  const browser = await launch(t)
  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } })
      t.teardown(() => page.close())
      await page.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${created.id}/api-versions`)}`)
      await logIn(page, developer.email, 'correct-horse')
      const usage = page.getByTestId('api-versions-usage')
      await usage.waitFor()
      const rows = await usage.locator('tbody tr').allInnerTexts()
      t.equal(rows.length, 2, 'one row per version used')
      t.match(rows[0], /2026-11[\s\S]*1[\s\S]*0[\s\S]*0/, '2026-11: one request')
      t.match(rows[1], /2026-12[\s\S]*1/, '2026-12: one request')
      t.match(await page.getByTestId('api-versions-changelog').innerText(), /Money amounts are \{ amount, currency \} objects/, 'the changelog from the registry')
      t.ok(await fitsWidth(page), 'no sideways scroll')
      t.same(await seriousAxeViolations(page), [], 'no serious or critical axe violation')
      await screenshot(page, `api-versions-${width}`)
    })
  }

  await t.test('the sandbox upgrade, by keyboard', async (t) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    t.teardown(() => page.close())
    await page.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${created.id}/api-versions`)}`)
    await logIn(page, developer.email, 'correct-horse')
    const pinned = page.getByTestId('api-versions-pinned')
    await pinned.waitFor()
    t.match(await pinned.innerText(), /2026-11[\s\S]*Sandbox/)
    await page.getByLabel('Version').selectOption('2026-12')
    await page.getByRole('button', { name: 'Upgrade the sandbox' }).focus()
    await page.keyboard.press('Enter')
    await page.getByText('1 sandbox installation now on 2026-12').waitFor()
    await pinned.getByText('2026-12').waitFor()
    t.equal((await app.inject({ method: 'GET', url: '/app-api/orders', headers: auth })).headers['app-api-version'], '2026-12', 'the sandbox install answers in 2026-12')
    await screenshot(page, 'api-versions-upgraded')
  })

  await t.test('upgrading every installation asks first, saying how many move and what changes', async (t) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 900 } })
    t.teardown(() => page.close())
    await page.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${created.id}/api-versions`)}`)
    await logIn(page, developer.email, 'correct-horse')
    await page.getByTestId('api-versions-pinned').getByText('2026-12').waitFor()
    await page.getByLabel('Version').selectOption('2026-11')
    await page.getByRole('button', { name: 'Upgrade all installations' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Confirm the upgrade of all installations' })
    t.equal(await confirm.getByTestId('upgrade-all-count').innerText(), '1', 'one installation moves')
    t.match(await confirm.innerText(), /1 on 2026-12\) to 2026-11/, 'from which version to which')
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'focus starts on Cancel')
    await page.keyboard.press('Escape')
    await confirm.waitFor({ state: 'detached' })
    t.equal((await app.inject({ method: 'GET', url: '/app-api/orders', headers: auth })).headers['app-api-version'], '2026-12', 'Escape moved nothing')
    await page.getByLabel('Version').selectOption('2026-12')
    await page.getByRole('button', { name: 'Upgrade all installations' }).click()
    t.match(await confirm.innerText(), /Every installation is on 2026-12 already/)
    t.ok(await confirm.getByRole('button', { name: /^Upgrade 0/ }).isDisabled(), 'nothing to move: nothing to confirm')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await page.getByLabel('Version').selectOption('2026-11')
    await page.getByRole('button', { name: 'Upgrade all installations' }).click()
    // the counts reload after the move; held back here, as a slow answer would be, the button that counts them waits for them
    const held = gate()
    const counts = (url: URL) => url.pathname === `/developer/apps/${created.id}/api-versions`
    await page.route(counts, async (route) => { await held.opened; await route.fallback() })
    await confirm.getByRole('button', { name: 'Upgrade 1 to 2026-11' }).click()
    await page.getByText('1 installation now on 2026-11').waitFor()
    t.ok(await page.getByRole('button', { name: 'Upgrade all installations' }).isDisabled(), 'not while the old counts are shown')
    held.open()
    await page.unroute(counts)
    t.equal((await app.inject({ method: 'GET', url: '/app-api/orders', headers: auth })).headers['app-api-version'], '2026-11', 'confirmed: moved')
    await page.getByLabel('Version').selectOption('2026-12')
    await page.getByRole('button', { name: 'Upgrade all installations' }).click()
    t.match(await confirm.innerText(), /2026-12: Money amounts are \{ amount, currency \} objects/, 'an upgrade lists the changes the installs will see')
    await screenshot(page, 'api-versions-upgrade-all-confirm-390')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    t.ok(await fitsWidth(page), 'no sideways scroll at 390 px')
    t.same(await seriousAxeViolations(page), [], 'no serious or critical axe violation')
  })
})
