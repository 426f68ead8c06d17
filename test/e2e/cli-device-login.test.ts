import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { build, listen, registerUser, portsOf } from '../helper.ts'
import { freePort } from '../process.ts'
import { cliHome, runCli, startCli } from '../cli/helper.ts'
import { launch, logIn, screenshot } from './browser.ts'

/** The fee the local app answers checkout.shipping_rates with. */
const LOCAL_FEE = 640

t.test('the CLI end to end: device login approved in Chromium, init, push, listen, a relayed hook in the console, revoke in the portal', async (t) => {
  const app = await build(t, { env: { DEVICE_POLL_INTERVAL_SECONDS: '1' } })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const home = cliHome(t)
  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })

  const login = startCli(['login', '--json', '--server', base], { home })
  const shown = JSON.parse(await login.line((line) => line.includes('userCode'))) as { userCode: string, verificationUriComplete: string }
  await page.goto(shown.verificationUriComplete)
  await page.waitForURL(/\/login\?next=/)
  await logIn(page, developer.email, 'correct-horse')
  await page.getByTestId('device-login').waitFor()
  t.equal(await page.getByLabel('Code').inputValue(), shown.userCode, 'the link carried the code')
  t.match(await page.getByTestId('device-login').innerText(), /A device asked to act as you/)
  t.match(await page.getByTestId('device-requester').innerText(), /Name chosen by the device\s+.?app-platform CLI on .*Requested from\s+\S+.*Requested at/s, 'the requester: its chosen name, labelled, then the address and time the platform saw')
  await screenshot(page, 'cli-device-login')
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.getByTestId('device-done').waitFor()
  const loggedIn = await login.exited
  t.equal(loggedIn.code, 0, loggedIn.stderr)
  t.match(loggedIn.stdout, new RegExp(`"email":"${developer.email.replace(/[.+]/g, '\\$&')}"`))

  // the local app answers the shipping hook; the registered URL is unreachable, so only the relay gets there
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.setHeader('content-type', 'application/json')
      if (request.url === '/webhooks/hooks/shipping-rates') response.end(JSON.stringify({ fee: LOCAL_FEE }))
      else { response.statusCode = 404; response.end('{}') }
    })
  }).listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  t.teardown(() => receiver.close())
  const dir = join(home, 'browser-app')
  const init = await runCli(['app', 'init', dir, '--json', '--server', base, '--scopes', 'write_shipping', '--app-url', `http://127.0.0.1:${await freePort()}`], { home })
  t.equal(init.code, 0, init.stderr)
  const appId = JSON.parse(init.stdout).appId as string
  // the developer declares a hook in app-platform.json; push sends it
  const file = join(dir, 'app-platform.json')
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), manifest: { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/hooks/shipping-rates' }] } }, null, 2))
  t.equal((await runCli(['app', 'push', '--yes', '--server', base], { home, cwd: dir })).code, 0)
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${appId}/test-install`, headers: developer.auth })).statusCode, 201)
  const relay = startCli(['listen', '--forward-to', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`, '--json', '--server', base], { home, cwd: dir })
  t.teardown(() => { relay.child.kill('SIGINT') })
  await relay.line((line) => line.includes('"ready"'))
  const slug = (await app.inject({ url: '/auth/me', headers: developer.auth })).json().business.slug as string
  const products = (await app.storefront.inject({ url: `/store/${slug}/api/products` })).json().data as Array<{ id: string }>
  const quoted = (await app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: { items: [{ productId: products[0]?.id, quantity: 1 }], deliveryMethod: 'DELIVERY', address: '1 Main St' }
  })).json()
  t.equal(quoted.deliveryFee, LOCAL_FEE, 'the local answer set the fee')
  await portsOf(app).checkoutHooks.flush()

  await page.goto(`${base}/portal/apps/${appId}/hook-calls`)
  const call = page.getByTestId('hook-call').filter({ hasText: 'checkout.shipping_rates' }).first()
  await call.waitFor()
  t.equal(await call.getByTestId('relayed').innerText(), 'Relayed', 'the console marks the call relayed')
  await screenshot(page, 'cli-relayed-hook-call')

  await page.goto(`${base}/portal`)
  const tokens = page.getByTestId('cli-tokens')
  await tokens.getByRole('row').filter({ hasText: 'app-platform CLI on' }).waitFor()
  await tokens.getByRole('button', { name: 'Revoke' }).click()
  await tokens.getByText('No CLI is signed in.').waitFor()
  t.equal((await relay.exited).code, 1, 'the revoked token ends the listen session')
  t.match(relay.stdout(), /"error":{"message":"Your CLI login has expired or was revoked: run `app-platform login` again"/, 'the --json error on stdout')
  const whoami = await runCli(['whoami', '--server', base], { home })
  t.equal(whoami.code, 1)
  t.match(whoami.stderr, /run `app-platform login` again/)
  const logout = await runCli(['logout', '--server', base, '--json'], { home })
  t.equal(logout.code, 0)
  t.match(JSON.parse(logout.stdout), { loggedOut: true, revoked: false })
})
