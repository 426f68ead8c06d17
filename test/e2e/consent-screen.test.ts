import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { build, listen, registerUser, createApp, publishApp, REVIEWER_ENV } from '../helper.ts'
import { launch, screenshot } from './browser.ts'

t.test('consent screen in Chromium', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  // the app's own callback page, on its own origin
  const receiver = createServer((request, response) => { response.setHeader('content-type', 'text/html'); response.end(`<h1 id="callback">${new URL(request.url ?? '/', 'http://x').search.replace(/[<>&"]/g, '')}</h1>`) })
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  t.teardown(() => receiver.close())
  const redirectUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`

  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { name: 'Review Booster', redirectUrl, scopes: ['read_business', 'read_pages'], description: 'Shows your best reviews on every page.' })
  await publishApp(app, developer, created.id)
  const merchantEmail = `consent-${process.pid}@example.com`
  await app.inject({ method: 'POST', url: '/auth/register', payload: { email: merchantEmail, password: 'correct-horse', name: 'Mo', role: 'MERCHANT', businessName: 'Mo’s Pizza' } })

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 } })
  const authorizeUrl = `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: created.clientId, redirect_uri: redirectUrl, scope: 'read_business read_pages', state: 'st-42' })}`

  await page.goto(authorizeUrl)
  await page.waitForURL(/\/login\?next=/)
  t.pass('asks to log in first')
  await page.getByLabel('Email').fill(merchantEmail)
  await page.getByLabel('Password').fill('correct-horse')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByTestId('consent').waitFor()
  t.equal(page.url(), authorizeUrl, 'and comes back to the consent screen')
  const text = await page.getByTestId('consent').innerText()
  t.match(text, /Review Booster/)
  t.match(text, /Install on Mo’s Pizza/)
  t.match(text, /See your business details/)
  t.match(text, /See your site pages/)
  await screenshot(page, 'consent-screen')

  await page.getByRole('button', { name: 'Install app' }).click()
  await page.waitForURL(/\/callback\?/)
  const callback = new URL(page.url())
  t.equal(callback.searchParams.get('state'), 'st-42')
  const code = callback.searchParams.get('code') as string
  const token = await app.inject({
    method: 'POST', url: '/oauth/token',
    headers: { authorization: `Basic ${Buffer.from(`${created.clientId}:${clientSecret}`).toString('base64')}` },
    payload: { grant_type: 'authorization_code', code, redirect_uri: redirectUrl }
  })
  t.equal(token.statusCode, 200, 'the code from the screen exchanges for a token')
  // the app sends the merchant back by admin_return_url: the admin names the new install
  const returnUrl = new URL(token.json().admin_return_url as string)
  await page.goto(`${base}${returnUrl.pathname}${returnUrl.search}`)
  await page.getByTestId('just-installed').waitFor()
  t.match(await page.getByTestId('just-installed').innerText(), /Review Booster is installed/, 'admin_return_url lands on the admin naming the install')

  await page.goto(authorizeUrl)
  await page.getByTestId('consent').waitFor()
  t.match(await page.getByTestId('consent').innerText(), /Update the app on/, 'an installed app is an update')
  await page.getByRole('button', { name: 'Deny' }).click()
  const denied = page.getByTestId('consent-denied')
  await denied.waitFor()
  t.match(await denied.innerText(), /You denied Review Booster[\s\S]*Nothing changed: Review Booster keeps only the access it had on Mo’s Pizza/, 'Deny stays on the platform and says what happened')
  t.equal(await denied.getByRole('link', { name: 'Back to the admin' }).getAttribute('href'), '/admin/apps', 'with the way back into the admin')
  await screenshot(page, 'consent-denied')
  await page.setViewportSize({ width: 390, height: 760 })
  t.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scroll at 390 px')
  await screenshot(page, 'consent-denied-390')
  await page.setViewportSize({ width: 1280, height: 760 })
  await denied.getByRole('button', { name: 'Return to Review Booster' }).click()
  await page.waitForURL(/\/callback\?/)
  t.equal(new URL(page.url()).searchParams.get('error'), 'access_denied', 'or back to the app, told access_denied (RFC 6749 §4.1.2.1)')
  t.equal(new URL(page.url()).searchParams.get('state'), 'st-42')

  // a problem after a valid redirect_uri goes back to the app with the state (RFC 6749 §4.1.2.1), not onto the screen
  await page.goto(`${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: created.clientId, redirect_uri: redirectUrl, scope: 'read_orders', state: 'st-43' })}`)
  await page.waitForURL(/\/callback\?/)
  const refused = new URL(page.url()).searchParams
  t.match({ error: refused.get('error'), state: refused.get('state'), description: refused.get('error_description') }, { error: 'invalid_scope', state: 'st-43', description: /read_orders/ })
  await page.goto(`${base}/oauth/authorize?${new URLSearchParams({ client_id: created.clientId, redirect_uri: redirectUrl, state: 'st-44' })}`)
  await page.waitForURL(/\/callback\?/)
  t.equal(new URL(page.url()).searchParams.get('error'), 'invalid_request', 'response_type is required')

  await page.goto(`${base}/oauth/authorize?client_id=${created.clientId}&redirect_uri=${encodeURIComponent('https://evil.example.com/')}`)
  await page.getByRole('alert').waitFor()
  t.match(await page.getByRole('alert').innerText(), /redirect_uri does not match/)
  await screenshot(page, 'consent-bad-link')
})
