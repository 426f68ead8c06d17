import t from 'tap'
import { build, listen, registerUser, REVIEWER_ENV } from '../helper.ts'
import { launch, logIn } from './browser.ts'

t.test('signing in lands each role on its own home; a next parameter still wins', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const browser = await launch(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const developer = await registerUser(app, 'DEVELOPER')
  const accounts: Array<[string, string, string, string]> = [
    ['merchant', merchant.email, 'correct-horse', '/admin'],
    ['developer', developer.email, 'correct-horse', '/portal'],
    ['reviewer', REVIEWER_ENV.REVIEWER_EMAIL, REVIEWER_ENV.REVIEWER_PASSWORD, '/reviewer']
  ]
  for (const [role, email, password, home] of accounts) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${base}/login`)
    await logIn(page, email, password)
    t.equal(new URL(page.url()).pathname, home, `a ${role} lands on ${home}`)
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(`${base}/login`)
    await page.goto(`${base}/login?next=${encodeURIComponent('/?q=loyalty')}`)
    await logIn(page, email, password)
    t.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/?q=loyalty', `next wins for a ${role}`)
    await context.close()
  }
  const page = await browser.newPage()
  await page.goto(`${base}/login?next=${encodeURIComponent('//evil.example.com')}`)
  await logIn(page, merchant.email, 'correct-horse')
  t.equal(page.url(), `${base}/admin`, 'a next that leaves the site is ignored')
})
