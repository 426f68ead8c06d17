import t from 'tap'
import { build, listen, REVIEWER_ENV, portsOf } from '../helper.ts'
import { receiverApp } from '../plugins/app-checks/fixtures.ts'
import { launch, logIn, screenshot } from './browser.ts'

t.test('app checks in Chromium: the developer runs them from the portal, the reviewer\'s page leads with them', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const { receiver, developer, appId } = await receiverApp(t, app)
  // one way to fail: the app's webhook accepts forged signatures
  receiver.faults = { acceptsForgedSignatures: true }

  const browser = await launch(t)
  const dev = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await dev.goto(`${base}/login?next=${encodeURIComponent(`/portal/apps/${appId}/checks`)}`)
  await logIn(dev, developer.email, 'correct-horse')

  await t.test('an empty state before the first run', async (t) => {
    await dev.getByTestId('empty').first().waitFor()
    t.match(await dev.getByTestId('check-run').innerText(), /No checks have run for version 1\.0\.0 yet/)
    t.equal(await dev.getByRole('tab', { selected: true }).innerText(), 'Checks')
  })

  await t.test('Run checks (by keyboard): progress, then the results with the failure first and what to fix', async (t) => {
    await dev.getByTestId('run-checks').focus()
    await dev.keyboard.press('Enter')
    await dev.getByTestId('check-run-status').first().filter({ hasText: /Checks failed/ }).waitFor({ timeout: 30_000 })
    const first = dev.getByTestId('check-result').first()
    t.equal(await first.getAttribute('data-outcome'), 'FAIL')
    t.match(await first.innerText(), /webhook\.rejects_bad_signature[\s\S]*Expected 401 for both[\s\S]*What to fix: Verify X-Webhook-Signature/)
    await first.getByText(/Evidence \(2 exchanges\)/).click()
    t.match(await first.innerText(), /forged signature[\s\S]*HTTP 200/, 'the evidence opens')
    t.match(await dev.getByTestId('check-history').innerText(), /Version 1\.0\.0[\s\S]*Checks failed[\s\S]*run by you/)
    t.notOk(await dev.getByTestId('run-checks').isDisabled(), 'ready for another run')
    await screenshot(dev, 'portal-checks')
    await dev.setViewportSize({ width: 390, height: 844 })
    t.ok(await dev.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px')
    await screenshot(dev, 'portal-checks-390')
    await dev.setViewportSize({ width: 1280, height: 900 })
  })

  await t.test('submitting runs them again; the reviewer sees them first, failures first', async (t) => {
    await dev.getByRole('tab', { name: 'Review' }).click()
    await dev.getByRole('button', { name: 'Submit for review' }).click()
    await dev.getByText(/Submitted: a reviewer will/).waitFor()
    await portsOf(app).appChecks.idle()

    const reviewer = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await reviewer.goto(`${base}/login?next=${encodeURIComponent(`/reviewer/apps/${appId}`)}`)
    await logIn(reviewer, REVIEWER_ENV.REVIEWER_EMAIL, REVIEWER_ENV.REVIEWER_PASSWORD)
    const panel = reviewer.getByTestId('review-checks')
    await panel.getByTestId('check-result').first().waitFor()
    const checksTop = (await panel.boundingBox())?.y ?? Infinity
    const listingTop = (await reviewer.getByRole('heading', { name: 'Listing' }).boundingBox())?.y ?? -Infinity
    t.ok(checksTop < listingTop, 'the checks come before the listing')
    t.match(await panel.innerText(), /App checks[\s\S]*Checks failed[\s\S]*run at submission[\s\S]*webhook\.rejects_bad_signature/)
    t.equal(await panel.getByTestId('check-result').first().getAttribute('data-outcome'), 'FAIL')
    await panel.getByText('9 passed, 1 skipped').waitFor()
    t.equal(await panel.getByTestId('check-result').filter({ visible: true }).count(), 1, 'the passes are folded under one line')
    await screenshot(reviewer, 'review-app-checks')
    await reviewer.setViewportSize({ width: 390, height: 844 })
    t.ok(await reviewer.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px')
    await screenshot(reviewer, 'review-app-checks-390')
    await reviewer.close()
  })

  await t.test('with many failures the decision stays in reach: in view at 1280 and 390 px, and by keyboard before the results', async (t) => {
    receiver.faults = {
      acceptsForgedSignatures: true, erasureAnswers500: true, blockDeniesFraming: true, wrongHookShape: true, scriptAsHtml: true, wrongClientId: true
    }
    t.teardown(() => { receiver.faults = {} })
    const started = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: developer.auth })
    t.equal(started.statusCode, 202)
    await portsOf(app).appChecks.idle()

    const reviewer = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    t.teardown(() => reviewer.close())
    await reviewer.goto(`${base}/login?next=${encodeURIComponent(`/reviewer/apps/${appId}`)}`)
    await logIn(reviewer, REVIEWER_ENV.REVIEWER_EMAIL, REVIEWER_ENV.REVIEWER_PASSWORD)
    const panel = reviewer.getByTestId('review-checks')
    await panel.getByTestId('check-result').first().waitFor()
    t.equal(await panel.getByTestId('check-result').filter({ visible: true }).count(), 6, 'six failures are listed')
    const decision = reviewer.getByTestId('review-decision')
    t.match(await decision.getByTestId('decision-checks').innerText(), /Checks failed\s+6 failed · 0 warnings · 4 passed · 1 skipped/, 'the decision panel sums the run up')
    const approve = reviewer.getByRole('button', { name: 'Approve' })
    const inView = async () => await approve.evaluate((button) => {
      const box = button.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })
    t.ok(await inView(), 'Approve is in view at 1280 px without scrolling')
    t.ok(await reviewer.evaluate(() => document.documentElement.scrollHeight > window.innerHeight * 2), 'the page is long')
    await reviewer.evaluate(() => { window.scrollTo(0, document.documentElement.scrollHeight) })
    t.ok(await inView(), 'and stays in view at the bottom of the page (sticky)')
    await reviewer.evaluate(() => { window.scrollTo(0, 0) })
    await screenshot(reviewer, 'review-app-decision')

    // by keyboard from the top of the page: the decision comes before any control of the results
    await reviewer.evaluate(() => { (document.activeElement as HTMLElement | null)?.blur() })
    let presses = 0
    let inResults = false
    for (; presses < 40; presses++) {
      await reviewer.keyboard.press('Tab')
      const where = await reviewer.evaluate(() => ({
        approve: document.activeElement?.textContent === 'Approve',
        results: document.querySelector('[data-testid="review-checks"]')?.contains(document.activeElement) === true
      }))
      if (where.results) inResults = true
      if (where.approve) break
    }
    t.notOk(inResults, 'no result is passed on the way')
    t.ok(presses < 40, `Approve is reached by keyboard (${presses + 1} presses of Tab)`)
    await reviewer.getByLabel('Notes for the developer').focus()
    await reviewer.keyboard.type('Six checks fail: please fix them.')
    await reviewer.keyboard.press('Tab')
    await reviewer.keyboard.press('Tab')
    t.equal(await reviewer.evaluate(() => document.activeElement?.textContent), 'Reject', 'Reject follows Approve')

    await reviewer.setViewportSize({ width: 390, height: 844 })
    t.ok(await inView(), 'Approve is in view at 390 px without scrolling')
    t.ok(await reviewer.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px')
    await screenshot(reviewer, 'review-app-decision-390')
    await reviewer.getByRole('link', { name: 'Read the results' }).click()
    await reviewer.waitForFunction(() => (document.getElementById('review-checks-title')?.getBoundingClientRect().top ?? 999) < 100)
    t.pass('Read the results leads to them')
  })
})
