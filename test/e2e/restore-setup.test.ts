import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, REVIEWER_ENV } from '../helper.ts'
import { businessSlug, createPage, putBlocks, putEmbeds } from '../plugins/storefront/fixtures.ts'
import { launch, logIn, screenshot } from './browser.ts'

t.test('a reinstalled app gets its previous setup back, in Chromium', async (t) => {
  // the app's origin: its block page, its script embed (which shows the settings it was given) and its OAuth callback
  const appServer = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (path === '/embed.js') {
      response.setHeader('content-type', 'text/javascript')
      response.end(`const settings = JSON.parse(document.currentScript.dataset.settings)
const banner = document.createElement('p'); banner.id = 'embed-banner'; banner.textContent = 'Loyalty points for ' + settings.program
document.querySelector('main').prepend(banner)`)
      return
    }
    response.setHeader('content-type', 'text/html')
    response.end(path === '/block' ? '<!doctype html><body><h2>Earn points on every loaf</h2></body>' : '<!doctype html><h1 id="callback">Installed</h1>')
  })
  appServer.listen(0, '127.0.0.1')
  await once(appServer, 'listening')
  t.teardown(() => appServer.close())
  const appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`

  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const email = `restore-${process.pid}@example.com`
  const registered = (await app.inject({ method: 'POST', url: '/auth/register', payload: { email, password: 'correct-horse', name: 'Rosa', role: 'MERCHANT', businessName: 'Rosa Bakes' } })).json()
  const merchant = { token: registered.token, userId: registered.user.id, businessId: registered.businessId, email, auth: { authorization: `Bearer ${registered.token}` } }
  const slug = await businessSlug(app, merchant)

  const loyalty = {
    blocks: [{ blockType: 'points', name: 'Points banner', renderUrl: `${appOrigin}/block`, settingsSchema: { type: 'object', properties: { tone: { type: 'string' } } }, defaultConfig: { tone: 'warm' } }],
    embeds: [
      { embedType: 'tracker', name: 'Points tracker', kind: 'GLOBAL_SCRIPT', position: 'body_end', scriptUrl: `${appOrigin}/embed.js`, settingsSchema: { type: 'object', properties: { program: { type: 'string' } } }, defaultConfig: { program: 'default' } },
      { embedType: 'badge', name: 'Points badge', kind: 'FLOATING_WIDGET', position: 'bottom_left', renderUrl: `${appOrigin}/block` }
    ]
  }
  const developer = await registerUser(app, 'DEVELOPER')
  const redirectUrl = `${appOrigin}/callback`
  const { app: created, clientSecret } = await createApp(app, developer, { name: 'Loyalty Loaf', redirectUrl, scopes: ['read_business'] })
  const setManifest = async (manifest: Record<string, unknown>) => {
    const saved = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })
    t.equal(saved.statusCode, 200, saved.body)
  }
  await setManifest(loyalty)
  await publishApp(app, developer, created.id)
  const first = (await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl })).installationId
  // the merchant's setup: the tracker on with its program, the badge on, the points banner on the home page
  t.equal((await putEmbeds(app, merchant, first, { tracker: { enabled: true, settings: { program: 'Rosa Rewards' } }, badge: { enabled: true } })).statusCode, 200)
  await createPage(app, merchant, 'home', 'Fresh from the oven')
  t.equal((await putBlocks(app, merchant, 'home', [{ installationId: first, blockType: 'points', settings: { tone: 'bold' } }])).statusCode, 200)

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
  page.on('dialog', (dialog) => { void dialog.accept() })
  const storeUrl = `${app.origins.storefrontOrigin(slug)}/store/${slug}`
  await page.goto(storeUrl)
  await page.locator('#embed-banner').waitFor()
  t.equal(await page.locator('iframe.block').count(), 1, 'before: the block is on the store page')

  // the merchant uninstalls it from the admin
  await page.goto(`${base}/admin/apps`)
  await logIn(page, email, 'correct-horse')
  const card = page.getByTestId(`installed-${created.slug}`)
  await card.getByRole('button', { name: 'Uninstall' }).click()
  await card.getByRole('button', { name: 'Uninstall app' }).click()
  await card.waitFor({ state: 'detached' })
  // meanwhile the app dropped its badge embed
  await setManifest({ blocks: loyalty.blocks, embeds: [loyalty.embeds[0]] })

  // and installs it again through the consent screen; the app exchanges the code and sends the merchant back
  const authorize = `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: created.clientId, redirect_uri: redirectUrl, scope: 'read_business', state: 's1' })}`
  await page.goto(authorize)
  await page.getByRole('button', { name: 'Install app' }).click()
  await page.waitForURL((url) => url.href.startsWith(redirectUrl))
  const code = new URL(page.url()).searchParams.get('code') as string
  t.ok(code, 'the consent screen issued a code')
  const token = await app.inject({
    method: 'POST', url: '/oauth/token',
    headers: { authorization: `Basic ${Buffer.from(`${created.clientId}:${clientSecret}`).toString('base64')}` },
    payload: { grant_type: 'authorization_code', code, redirect_uri: redirectUrl }
  })
  t.equal(token.statusCode, 200, token.body)
  const returnUrl = new URL(token.json().admin_return_url as string)
  await page.goto(`${base}${returnUrl.pathname}${returnUrl.search}`)

  const offer = page.getByTestId('previous-setup')
  await offer.waitFor()
  const text = await offer.innerText()
  t.match(text, /You had this app before/)
  t.match(text, /Points tracker embed \(on\)/, 'it offers the embed')
  t.match(text, /Points banner block on Fresh from the oven, position 1/, 'and the block where it stood')
  t.match(await page.getByTestId('previous-setup-skipped').innerText(), /Points badge embed \(on\)\s+The app no longer has this embed/, 'what cannot come back says why')
  await screenshot(page, 'restore-setup-offer')
  await page.setViewportSize({ width: 390, height: 844 })
  const restore = offer.getByRole('button', { name: 'Restore' })
  const box = await restore.boundingBox()
  t.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, 'the Restore button fits at 390 px')
  await screenshot(page, 'restore-setup-offer-390')
  await page.setViewportSize({ width: 1280, height: 860 })

  // by keyboard
  await restore.focus()
  await page.keyboard.press('Enter')
  await page.getByText(/your previous setup is back \(2 parts restored, 1 could not be\)/).waitFor()
  await offer.waitFor({ state: 'detached' })
  t.equal(await offer.count(), 0, 'the offer is gone once restored')
  await screenshot(page, 'restore-setup-done')

  await page.goto(storeUrl)
  await page.locator('#embed-banner').waitFor()
  t.equal(await page.locator('#embed-banner').innerText(), 'Loyalty points for Rosa Rewards', 'the embed is on again, with its settings')
  t.equal(await page.locator('iframe.block').count(), 1, 'the block is back on the store page')
  t.equal(await page.frameLocator('iframe.block').locator('h2').innerText(), 'Earn points on every loaf')
  t.equal(await page.locator('iframe.widget').count(), 0, 'the dropped badge embed stays off')
})
