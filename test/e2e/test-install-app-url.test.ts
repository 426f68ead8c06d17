import t from 'tap'
import type { Test } from 'tap'
import { createServer, type IncomingMessage } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { buildAuthorizeUrl, createPkcePair, createState, exchangeCode, parseAuthorizeCallback, type TokenResponse } from '../../sdk/src/index.ts'
import { build, createApp, listen, registerUser, until } from '../helper.ts'
import { placeOrder } from '../plugins/webhooks/helpers.ts'
import { launch, logIn, screenshot } from './browser.ts'

interface Verified { event: string, data: { orderId: string } }

/**
 * A small SDK-based app on 127.0.0.1, as an outside developer writes it: its App URL starts OAuth
 * (state, PKCE), its callback exchanges the code and keeps the credentials, its webhook endpoint
 * verifies Standard Webhooks deliveries with the `standardwebhooks` package and the secret as given.
 */
async function sdkApp (t: Test, platform: string) {
  const state = {
    credentials: { clientId: '', clientSecret: '' },
    pending: new Map<string, string>(),
    installed: null as TokenResponse | null,
    verified: [] as Verified[]
  }
  const body = async (request: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', origin)
      if (url.pathname === '/' && url.searchParams.has('businessId')) {
        const oauthState = createState()
        const pkce = createPkcePair()
        state.pending.set(oauthState, pkce.codeVerifier)
        const to = buildAuthorizeUrl({ adminUrl: platform, clientId: state.credentials.clientId, redirectUri: `${origin}/oauth/callback`, state: oauthState, codeChallenge: pkce.codeChallenge })
        response.writeHead(302, { location: to }).end()
      } else if (url.pathname === '/oauth/callback') {
        const oauthState = url.searchParams.get('state') ?? ''
        const { code } = parseAuthorizeCallback(url, oauthState)
        state.installed = await exchangeCode({
          baseUrl: platform, ...state.credentials, code, redirectUri: `${origin}/oauth/callback`, codeVerifier: state.pending.get(oauthState)
        })
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<h1 id="installed">Installed on ${state.installed.business_id}</h1>`)
      } else if (url.pathname === '/webhooks' && request.method === 'POST') {
        const raw = await body(request)
        const secret = state.installed?.webhook_secret ?? ''
        state.verified.push(new Webhook(secret).verify(raw, request.headers as Record<string, string>) as Verified)
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      } else {
        response.writeHead(404).end()
      }
    })().catch((error: Error) => { response.writeHead(500).end(error.message) })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.close(); server.closeAllConnections() })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, state }
}

t.test("the portal's Test install goes through the App URL: the app receives its credentials (DESIGN §22)", async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const outside = await sdkApp(t, base)
  const { app: created, clientSecret } = await createApp(app, developer, {
    name: 'Spec Stamps', scopes: ['read_orders'], appUrl: `${outside.origin}/`, redirectUrl: `${outside.origin}/oauth/callback`,
    webhookUrl: `${outside.origin}/webhooks`, webhookEvents: ['order.created'], webhookSignatureScheme: 'standard-webhooks'
  })
  outside.state.credentials = { clientId: created.clientId, clientSecret }
  const { app: plain } = await createApp(app, developer, { name: 'No Entry', scopes: ['read_orders'] })

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
  await page.goto(`${base}/login`)
  await logIn(page, developer.email, 'correct-horse')

  await page.goto(`${base}/portal/apps/${created.id}/test`)
  await page.getByTestId('test-install-through-app').waitFor()
  const start = page.getByRole('link', { name: 'Test install through your app' })
  t.equal(new URL(await start.getAttribute('href') ?? '').origin, outside.origin, 'the button is a link to the App URL')
  await screenshot(page, 'test-install-through-app')
  await start.click()
  await page.getByTestId('consent').waitFor()
  t.match(await page.getByTestId('consent').innerText(), /Spec Stamps/, 'the app started OAuth: the developer approves on the consent screen')
  await page.getByRole('button', { name: 'Install app' }).click()
  await page.locator('#installed').waitFor()

  const installed = outside.state.installed
  t.match(installed, { access_token: /^fbat_test_/, business_id: developer.businessId, webhook_secret: /^whsec_[A-Za-z0-9+/]{43}=$/ }, 'the app, not the browser, holds the token and webhook secret')
  const me = await app.inject({ url: '/app-api/orders', headers: { authorization: `Bearer ${installed?.access_token ?? ''}` } })
  t.equal(me.statusCode, 200, 'the token works')
  const status = (await app.inject({ url: `/developer/apps/${created.id}/test-status`, headers: developer.auth })).json()
  t.match(status, { installed: true, isTestInstall: true, installationId: installed?.installation_id }, 'a test install on the sandbox')

  const order = await placeOrder(app, developer.businessId)
  const [delivery] = await until(async () => outside.state.verified, (verified) => verified.length > 0)
  t.match(delivery, { event: 'order.created', data: { orderId: order.id } }, 'the app verifies the delivery with the standardwebhooks package and the secret as given')

  await page.goto(`${base}/portal/apps/${created.id}/test`)
  await page.getByText('Installed on your sandbox').waitFor()
  t.equal(await page.getByText('Test install credentials').count(), 0, 'no credentials on the page')
  t.equal(await page.getByRole('link', { name: 'Reinstall through your app' }).count(), 1)

  await page.goto(`${base}/portal/apps/${plain.id}/test`)
  await page.getByRole('button', { name: 'Test install' }).click()
  await page.getByText('Test install credentials').waitFor()
  t.pass('without an App URL the credentials are shown once, as before')
})
