import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { request } from 'undici'
import { freePort, startServer, stopServer, type ServerProcess } from '../process.ts'

/** A store's page as a browser asks for it: on the store's own host (`<slug>.localhost`, which Node does not resolve). */
async function storePage (port: number, slug: string, path = '') {
  const answer = await request(`http://127.0.0.1:${port}/store/${slug}${path}`, { headers: { host: `${slug}.localhost:${port}` } })
  return { status: answer.statusCode, text: await answer.body.text() }
}

/** `npm start` as a user runs it: embedded PGlite in DATA_DIR, no other set-up. */
const start = async (dataDir: string, port: number): Promise<ServerProcess> => await startServer({ PORT: String(port), DATA_DIR: dataDir })

t.test('npm start: embedded database, demo seed, graceful stop, data kept', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-main-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`

  const first = await start(dataDir, port)
  t.teardown(() => { first.child.kill('SIGKILL') })
  // a bound for a hang, not a speed figure: with the reference app installed over real OAuth, a 2-core
  // machine running three other suites took 37 s (README gives the quiet figure)
  t.ok(first.readyMs < 90_000, `ready in ${first.readyMs} ms`)
  t.match(first.output(), /Demo logins/, 'prints the demo logins')
  t.match(first.output(), /"msg":"demo data created"/)
  t.match(first.output(), `Store      http://demo-pizzeria.localhost:${port + 1}/store/demo-pizzeria`, 'the banner names the demo store, on its own host')
  t.match(first.output(), `API docs   http://localhost:${port}/docs`)
  t.match(first.output(), /merchant +merchant@demo\.test \/ demo-password\n +developer +developer@demo\.test \/ demo-password\n +reviewer +reviewer@demo\.test/)
  t.match(first.output(), `Reference app http://localhost:${port + 2}`, 'the reference app runs on PORT + 2')
  const home = (await storePage(port + 1, 'demo-pizzeria')).text
  t.match(home, `<iframe class="block" src="http://localhost:${port + 2}/blocks/reviews-highlights?`, 'installed, with its block on the home page')
  t.match(home, `<iframe class="widget widget-bottom-right" src="http://localhost:${port + 2}/embeds/loyalty-widget?`, 'and its widget on')
  t.match(await (await fetch(`http://127.0.0.1:${port + 2}/blocks/reviews-highlights?businessId=${/businessId=(biz_\w+)/.exec(home)?.[1] ?? ''}`)).text(), /from 6 reviews/, 'the block reads the App API')
  const listing = await (await fetch(`${base}/marketplace/apps/reference-app`)).json()
  t.equal(listing.appUrl, `http://localhost:${port + 2}/`, 'the listing\'s Install button leads to the running reference app')
  t.equal((await fetch(`${base}/health`)).status, 200)
  t.equal((await fetch(`${base}/ready`)).status, 200)
  t.equal((await fetch(`${base}/docs/`)).status, 200)
  t.equal((await (await fetch(`${base}/openapi.json`)).json()).openapi, '3.1.0')
  t.match(await (await fetch(`${base}/`)).text(), /<div id="app">/)
  t.match(first.output(), `Storefront http://{store}.localhost:${port + 1}`, 'prints the storefront URL: PORT + 1 by default, a host per store')
  t.match(first.output(), `Store API  http://localhost:${port + 1}/store/<store>/api`, 'and where every store\'s customer API answers')
  const shop = await fetch(`${base}/store/demo`, { redirect: 'manual' })
  t.equal(shop.status, 308, 'the API origin sends the store to its own origin')
  t.equal(shop.headers.get('location'), `http://demo.localhost:${port + 1}/store/demo`)
  const products = await fetch(`http://127.0.0.1:${port + 1}/store/demo-pizzeria/api/products`)
  t.equal(products.status, 200, 'the customer API answers on the bare host')
  t.equal((await fetch(`http://127.0.0.1:${port + 1}/store/_assets/host.js`)).status, 200, 'the storefront listener serves the stores')
  t.equal((await fetch(`http://127.0.0.1:${port + 1}/auth/me`)).status, 404, 'and no API')
  const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'merchant@demo.test', password: 'demo-password' }) })
  t.equal(login.status, 200, 'demo merchant can log in')
  t.equal(await stopServer(first), 0, 'SIGTERM exits cleanly')

  const second = await start(dataDir, port)
  t.teardown(() => { second.child.kill('SIGKILL') })
  t.notMatch(second.output(), /"msg":"demo data created"/, 'no second seed')
  t.match(second.output(), /Demo logins/, 'the logins are still printed')
  t.match((await storePage(port + 1, 'demo-pizzeria')).text, /reviews-highlights/, 'the reference app kept its installation')
  const again = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'merchant@demo.test', password: 'demo-password' }) })
  t.equal(again.status, 200, 'data survived the restart')
  t.comment(`restart ready in ${second.readyMs} ms`)
  t.equal(await stopServer(second), 0)
})

t.test('PORT=0: every port is ephemeral and the banner prints the real URLs', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-main-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const server = await startServer({ PORT: '0', DATA_DIR: dataDir, DEMO_SEED: 'false' })
  t.teardown(() => { server.child.kill('SIGKILL') })
  const api = /API +(http:\/\/localhost:(\d+))/.exec(server.output())
  const store = /Storefront +http:\/\/\{store\}\.localhost:(\d+)/.exec(server.output())
  t.ok(api !== null && store !== null && api[2] !== '0' && store[1] !== '0' && api[2] !== store[1], `${api?.[1]} and ${store?.[1]}`)
  t.equal((await fetch(`http://127.0.0.1:${api?.[2]}/health`)).status, 200)
  const redirect = await fetch(`http://127.0.0.1:${api?.[2]}/store/x`, { redirect: 'manual' })
  t.equal(redirect.headers.get('location'), `http://x.localhost:${store?.[1]}/store/x`, 'the redirect names the store\'s host on the real storefront port')
  t.equal((await storePage(Number(store?.[1]), 'x')).status, 404, 'an unknown store on the storefront')
  t.equal(await stopServer(server), 0)
})

t.test('stopped while the demo is still being set up (right after listening): a clean exit, no error', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-main-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const child = spawn(process.execPath, ['--conditions=app-platform-source', '--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', PORT: '0', EXAMPLE_APP_PORT: '0', DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe']
  })
  t.teardown(() => { child.kill('SIGKILL') })
  let output = ''
  const exited = once(child, 'exit')
  child.stderr.on('data', (chunk: Buffer) => { output += String(chunk) })
  // the API listens before the demo's reference app is started and installed: stop the start there
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += String(chunk)
      if (output.includes('Server listening at')) resolve()
    })
  })
  child.kill('SIGTERM')
  const [code] = await exited
  t.equal(code, 0, output)
  t.notMatch(output, /second error|FST_ERR_REOPENED_CLOSE_SERVER|"level":50/, 'nothing fails for having been stopped')
  t.notMatch(output, /App Platform is ready/, 'and no banner of a start that did not finish')
})
