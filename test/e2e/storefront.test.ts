import t, { type Test } from 'tap'
import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { AddressInfo } from 'node:net'
import { build as esbuild } from 'esbuild'
import { build, listen, registerUser, REVIEWER_ENV } from '../helper.ts'
import { businessSlug, createPage, installApp, putBlocks, putEmbeds } from '../plugins/storefront/fixtures.ts'
import { createProduct } from '../plugins/commerce/fixtures.ts'
import { launch, screenshot } from './browser.ts'
import type { Page } from 'playwright-core'

/** The SDK's connectBlock as a browser global, the way an app would bundle it. */
async function sdkBundle (): Promise<string> {
  const result = await esbuild({
    stdin: { contents: "export { connectBlock } from './sdk/src/iframe.ts'", resolveDir: fileURLToPath(new URL('../../', import.meta.url)), loader: 'ts' },
    bundle: true, format: 'iife', globalName: 'AppSdk', write: false, logLevel: 'silent'
  })
  return result.outputFiles[0].text
}

async function serve (t: Test, routes: Record<string, () => [string, string]>): Promise<string> {
  const server: Server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', 'http://x').pathname]
    if (route === undefined) { response.statusCode = 404; response.end(); return }
    const [type, body] = route()
    response.setHeader('content-type', type)
    response.end(body)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

t.test('storefront blocks and embeds in Chromium', async (t) => {
  let storeOrigin = ''
  const sdk = await sdkBundle()
  // The app: a block page using the SDK, a GLOBAL_SCRIPT embed and a floating widget.
  const appOrigin = await serve(t, {
    '/sdk.js': () => ['text/javascript', sdk],
    '/block': () => ['text/html', `<!doctype html><html><head><style>body{font-family:system-ui;margin:0;padding:16px;background:#fdf6ec}h2{margin:0 0 8px;color:#8a4b08}</style></head>
<body><h2 id="headline">…</h2><p>Block <code id="block-id">waiting</code>, updates: <span id="updates">0</span></p><pre id="settings"></pre>
<script src="/sdk.js"></script><script>
let updates = 0
const show = (m) => { document.getElementById('headline').textContent = m.settings.headline; document.getElementById('settings').textContent = JSON.stringify(m.settings) }
const connection = AppSdk.connectBlock({
  targetOrigin: ${JSON.stringify(storeOrigin)},
  onInit (m) { document.getElementById('block-id').textContent = m.blockId; show(m); connection.resize(900) },
  onUpdate (m) { updates += 1; document.getElementById('updates').textContent = String(updates); show(m) }
})
</script></body></html>`],
    '/embed.js': () => ['text/javascript', `const settings = JSON.parse(document.currentScript.dataset.settings)
document.body.dataset.embed = 'ran'
const banner = document.createElement('p'); banner.id = 'embed-banner'; banner.textContent = 'Embed ran for site ' + settings.siteId
document.querySelector('main').prepend(banner)`],
    '/widget': () => ['text/html', '<!doctype html><body style="margin:0;font-family:system-ui;padding:12px;background:#eef4ff"><b>Chat</b><p>How can we help?</p></body>']
  })
  // The admin editor that frames the storefront in preview mode and sends SERVICE_BLOCK_UPDATE.
  const adminOrigin = await serve(t, {
    '/editor': () => ['text/html', `<!doctype html><body style="margin:0"><iframe id="store" style="width:1000px;height:700px;border:0"></iframe><script>
const store = document.getElementById('store'); store.src = new URLSearchParams(location.search).get('src')
window.sendUpdate = (message) => store.contentWindow.postMessage(message, new URL(store.src).origin)
</script></body>`]
  })

  const app = await build(t, { env: { ...REVIEWER_ENV, ADMIN_URL: adminOrigin } })
  await listen(app)
  const merchant = await registerUser(app, 'MERCHANT', { businessName: 'Rosa’s Bakery' })
  const slug = await businessSlug(app, merchant)
  storeOrigin = app.origins.storefrontOrigin(slug)
  const shop = await installApp(app, merchant, {
    blocks: [{ blockType: 'hero', name: 'Hero', renderUrl: `${appOrigin}/block`, settingsSchema: { type: 'object', properties: { headline: { type: 'string' } } }, defaultConfig: { headline: 'Hello' } }],
    embeds: [
      { embedType: 'tag', name: 'Tag', kind: 'GLOBAL_SCRIPT', position: 'body_end', scriptUrl: `${appOrigin}/embed.js`, settingsSchema: { type: 'object', properties: { siteId: { type: 'string' } } }, defaultConfig: { siteId: 'rosa-1' } },
      { embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: `${appOrigin}/widget` }
    ]
  })
  const inst = shop.installed.installationId
  await createPage(app, merchant, 'home', 'Fresh from the oven')
  await createPage(app, merchant, 'about', 'About us')
  t.equal((await putBlocks(app, merchant, 'home', [{ id: 'hero-1', installationId: inst, blockType: 'hero', settings: { headline: 'Sourdough Saturdays' } }])).statusCode, 200)
  t.equal((await putEmbeds(app, merchant, inst, { tag: { enabled: true }, chat: { enabled: true } })).statusCode, 200)
  for (const [name, price, description] of [['Sourdough loaf', 650, 'Naturally leavened, 24 h ferment.'], ['Croissant', 325, 'All-butter, laminated by hand.'], ['Rye bread', 580, 'Dense and tangy.']] as const) {
    await createProduct(app, merchant, { name, price, description })
  }

  const browser = await launch(t)
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
  const errors: string[] = []
  page.on('console', (message) => { if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`) })
  const storeUrl = `${storeOrigin}/store/${slug}`

  await page.goto(storeUrl)
  const block = page.frameLocator('iframe.block').first()
  await block.locator('#block-id').filter({ hasText: 'hero-1' }).waitFor()
  t.pass('READY → INIT delivered the blockId')
  t.equal(await block.locator('#headline').innerText(), 'Sourdough Saturdays', 'and the settings')
  await page.waitForFunction(() => (document.querySelector('iframe.block') as HTMLIFrameElement).style.height !== '')
  t.equal(await page.$eval('iframe.block', (frame) => (frame as HTMLIFrameElement).style.height), '400px', 'RESIZE 900 is clamped to 400')
  t.equal(Math.round((await page.locator('iframe.block').boundingBox())?.height ?? 0), 400)
  await page.locator('#embed-banner').waitFor()
  t.equal(await page.evaluate(() => document.body.dataset.embed), 'ran', 'the GLOBAL_SCRIPT embed ran')
  t.equal(await page.locator('#embed-banner').innerText(), 'Embed ran for site rosa-1', 'with its settings')
  const widget = await page.locator('iframe.widget').boundingBox()
  t.ok(widget !== null && widget.x + widget.width > 1050 && widget.y + widget.height > 850, 'the widget floats bottom right')
  t.equal(await page.frameLocator('iframe.widget').locator('b').innerText(), 'Chat')
  t.equal(await page.locator('.product').count(), 3)
  await screenshot(page, 'storefront-home')

  // A message from the page itself is not the admin: not forwarded even in preview mode.
  await page.goto(`${storeUrl}?preview=1`)
  await block.locator('#block-id').filter({ hasText: 'hero-1' }).waitFor()
  await page.evaluate(() => window.postMessage({ type: 'SERVICE_BLOCK_UPDATE', blockId: 'hero-1', settings: { headline: 'Forged' } }, '*'))
  await blockHandledWhatWasPosted(page)
  t.equal(await block.locator('#updates').innerText(), '0', 'an UPDATE not from the framing admin is ignored')

  // The editor preview: the admin frames the storefront and pushes new settings.
  const editor = await browser.newPage({ viewport: { width: 1000, height: 700 } })
  await editor.goto(`${adminOrigin}/editor?src=${encodeURIComponent(`${storeUrl}?preview=1`)}`)
  const previewBlock = editor.frameLocator('#store').frameLocator('iframe.block')
  await previewBlock.locator('#block-id').filter({ hasText: 'hero-1' }).waitFor()
  await editor.evaluate(() => (window as any).sendUpdate({ type: 'SERVICE_BLOCK_UPDATE', blockId: 'hero-1', settings: { headline: 'Now with rye' } }))
  await previewBlock.locator('#headline').filter({ hasText: 'Now with rye' }).waitFor()
  t.equal(await previewBlock.locator('#updates').innerText(), '1', 'UPDATE from the admin reaches the block')
  await editor.evaluate(() => (window as any).sendUpdate({ type: 'SERVICE_BLOCK_UPDATE', blockId: 'hero-1', settings: { headline: 'bad' }, extra: 1 }))
  await editor.evaluate(() => (window as any).sendUpdate({ type: 'SERVICE_BLOCK_UPDATE', blockId: 'other', settings: { headline: 'bad' } }))
  // a good update sent after them arrives after them (one window to another, in order): had either
  // been passed on, the block would count three updates when this one shows
  await editor.evaluate(() => (window as any).sendUpdate({ type: 'SERVICE_BLOCK_UPDATE', blockId: 'hero-1', settings: { headline: 'Now with spelt' } }))
  await previewBlock.locator('#headline').filter({ hasText: 'Now with spelt' }).waitFor()
  t.equal(await previewBlock.locator('#updates').innerText(), '2', 'malformed or unknown-block updates are dropped')
  await screenshot(editor, 'storefront-editor-preview')

  // Uninstall: neither the block nor the embeds come back on reload.
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/installations/${inst}`, headers: merchant.auth })).statusCode, 200)
  await page.goto(storeUrl)
  await page.locator('.product').first().waitFor()
  t.equal(await page.locator('iframe').count(), 0, 'no block, no widget')
  t.equal(await page.evaluate(() => document.body.dataset.embed), undefined, 'the script did not run')
  t.equal(await page.locator('#embed-banner').count(), 0)
  await screenshot(page, 'storefront-after-uninstall')
  t.same(errors, [], 'no console errors (CSP violations included)')
})

/**
 * Resolves once everything the store page has posted to its block frame so far was handled there,
 * without waiting for time: the page posts itself a probe (a window's own messages arrive in order, so
 * every earlier message's handler has run when it comes), then sends the block frame a probe of its
 * own after whatever those handlers passed on, and a listener in the frame says when that one came.
 */
async function blockHandledWhatWasPosted (page: Page): Promise<void> {
  const frame = await (await page.locator('iframe.block').first().elementHandle())?.contentFrame()
  if (frame === null || frame === undefined) throw new Error('no block frame')
  await frame.evaluate(() => {
    (window as any).probed = new Promise((resolve) => window.addEventListener('message', (event) => { if (event.data === 'probe') resolve(true) }))
  })
  await page.evaluate(() => new Promise<void>((resolve) => {
    window.addEventListener('message', (event) => {
      if (event.data !== 'probe') return
      ;(document.querySelector('iframe.block') as HTMLIFrameElement).contentWindow?.postMessage('probe', '*')
      resolve()
    })
    window.postMessage('probe', '*')
  }))
  await frame.evaluate(() => (window as any).probed)
}
