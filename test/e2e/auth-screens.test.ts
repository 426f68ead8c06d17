import t from 'tap'
import { build, listen, uniqueEmail } from '../helper.ts'
import { launch, screenshot } from './browser.ts'

t.test('register and login screens in Chromium', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } })
  const email = uniqueEmail('screen')

  await page.goto(`${base}/register`)
  await page.getByLabel('Merchant').check()
  await page.getByLabel('Name', { exact: true }).fill('Sam Shop')
  await page.getByLabel('Business name').fill('Sam Sells Soup')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel(/^Password/).fill('short')
  await screenshot(page, 'register-form')
  await page.getByRole('button', { name: 'Create account' }).click()
  // the browser's own minLength check keeps the form from being sent
  t.equal(page.url(), `${base}/register`)

  // #42 item 5: a common password is named under its field, not as the API's raw "body/password is too common…"
  await page.getByLabel(/^Password/).fill('password12')
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.getByTestId('field-error').waitFor()
  t.match(await page.getByTestId('field-error').innerText(), /^Is too common or easy to guess/)
  t.equal(await page.getByLabel(/^Password/).getAttribute('aria-invalid'), 'true', 'the password field is marked')
  t.notMatch(await page.locator('form').locator('..').innerText(), /body\/password/, 'no raw API path on the screen')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'register-weak-password-390')
  await page.setViewportSize({ width: 1100, height: 720 })

  await page.getByLabel(/^Password/).fill('correct-horse')
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL(`${base}/admin`)
  t.pass('a new merchant lands on Admin')
  await page.getByRole('link', { name: 'Marketplace' }).click()
  await page.getByTestId('welcome').waitFor()
  t.match(await page.getByTestId('who').innerText(), /Sam Shop/)
  t.match(await page.getByTestId('who').innerText(), /MERCHANT/)
  await screenshot(page, 'registered-home')

  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(`${base}/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('wrong-horse')
  await page.getByRole('button', { name: 'Log in' }).click()
  t.equal(await page.getByRole('alert').innerText(), 'Invalid email or password')
  await screenshot(page, 'login-error')

  await page.getByLabel('Password').fill('correct-horse')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(`${base}/admin`)
  await page.getByRole('link', { name: 'Marketplace' }).click()
  await page.getByTestId('welcome').waitFor()
  t.match(await page.getByTestId('welcome').innerText(), /Signed in as Sam Shop \(MERCHANT\)/)

  await page.reload()
  await page.getByTestId('welcome').waitFor()
  t.pass('the session survives a reload')

  await page.goto(`${base}/no/such/screen`)
  t.equal(await page.getByRole('heading').innerText(), 'Page not found')
})
