import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

/**
 * A tiny third-party app on 127.0.0.1, as a developer would write one: its appUrl starts OAuth (state,
 * PKCE S256) and its callback exchanges the code and calls the App API with the token; it serves a
 * block (SERVICE_BLOCK_* protocol), a floating widget showing its settings and an admin page (service:* bridge).
 */
export interface StudioApp {
  origin: string
  /** Set once the app exists on the platform. */
  client: { clientId: string, clientSecret: string, redirectUrl: string, scope: string } | null
  /** Tokens the callback obtained, by business id, with what the App API answered. */
  tokens: Map<string, { accessToken: string, businessName: string }>
  server: Server
}

const html = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><body style="font-family:system-ui;margin:0;padding:12px">${body}</body></html>`

/**
 * The block: shows its headline in its colour; INIT and UPDATE only from a store (its parent's origin,
 * which the storefront's referrer policy gives, and which must be one of the storefront's hosts).
 */
const BLOCK = (storefrontSource: string) => html(`<h2 id="headline" style="margin:0">…</h2><p id="kind"></p><span id="updates">0</span>
<script>
const stores = new RegExp('^' + ${JSON.stringify(storefrontSource)}.replace(/[.]/g, '\\.').replace('*', '[a-z0-9-]+') + '$')
const origin = new URL(document.referrer).origin
if (!stores.test(origin)) throw new Error('not framed by a store: ' + origin)
const params = new URLSearchParams(location.search)
document.getElementById('kind').textContent = params.get('kind') || ''
let updates = 0
window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== origin) return
  const data = event.data
  if (!data || (data.type !== 'SERVICE_BLOCK_INIT' && data.type !== 'SERVICE_BLOCK_UPDATE')) return
  if (data.type === 'SERVICE_BLOCK_UPDATE') document.getElementById('updates').textContent = String(++updates)
  const headline = document.getElementById('headline')
  headline.textContent = data.settings.headline || '(no headline)'
  document.body.style.background = data.settings.color || '#fff'
  window.parent.postMessage({ type: 'SERVICE_BLOCK_RESIZE', height: 120 }, origin)
})
window.parent.postMessage({ type: 'SERVICE_BLOCK_READY' }, origin)
</script>`)

/** The floating widget: its greeting comes from the embed's settings, which the storefront puts in its URL. */
const WIDGET = html(`<b id="chat">Chat with us</b><p id="greeting"></p>
<script>
const settings = JSON.parse(new URLSearchParams(location.search).get('settings') || '{}')
document.getElementById('greeting').textContent = settings.greeting || ''
</script>`)

/** The admin page: ready at once, asks for 900 px, a toast on click, and records its init. */
const ADMIN_PAGE = (adminOrigin: string) => html(`<h2>Reports</h2><p id="init">waiting</p>
<button id="toast">Say hello</button> <button id="next">Go to settings page</button> <button id="charge">Approve a charge</button>
<div style="height:820px;background:linear-gradient(#eef,#fff)">Tall report</div>
<script>
const admin = ${JSON.stringify(adminOrigin)}
const post = (message) => window.parent.postMessage(message, admin)
window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== admin || event.data.type !== 'service:init') return
  document.getElementById('init').textContent = 'Hello ' + event.data.businessName
})
document.getElementById('toast').onclick = () => post({ type: 'service:toast', message: 'Report exported', kind: 'info', futureField: 1 })
document.getElementById('next').onclick = () => post({ type: 'service:navigate', pageId: 'nowhere' })
// a charge that is not this installation's (DESIGN §23): the admin must not open it
document.getElementById('charge').onclick = () => post({ type: 'service:confirm-charge', chargeId: 'sub_notours' })
post({ type: 'service:ready' })
post({ type: 'service:resize', height: document.body.scrollHeight })
</script>`)

export async function startStudioApp (t: Test, platform: { base: string, storefrontSource: string }): Promise<StudioApp> {
  const states = new Map<string, { verifier: string, businessId: string }>()
  const studio: StudioApp = { origin: '', client: null, tokens: new Map(), server: createServer() }
  studio.server.on('request', (request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', studio.origin)
      const page = (status: number, body: string) => { response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }); response.end(body) }
      const client = studio.client
      if (client === null) return page(503, 'not set up')
      if (url.pathname === '/install') {
        // the install entry: the app starts OAuth for the business the marketplace names
        const state = randomBytes(16).toString('base64url')
        const verifier = randomBytes(32).toString('base64url')
        states.set(state, { verifier, businessId: url.searchParams.get('businessId') ?? '' })
        const authorize = new URL('/oauth/authorize', platform.base)
        authorize.search = new URLSearchParams({
          response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUrl, scope: client.scope, state,
          code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256'
        }).toString()
        response.writeHead(302, { location: authorize.toString() })
        return response.end()
      }
      if (url.pathname === '/callback') {
        const pending = states.get(url.searchParams.get('state') ?? '')
        if (pending === undefined) return page(400, 'unknown state')
        states.delete(url.searchParams.get('state') ?? '')
        const token = await fetch(`${platform.base}/oauth/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: url.searchParams.get('code') ?? '', redirect_uri: client.redirectUrl, code_verifier: pending.verifier })
        })
        if (!token.ok) return page(502, `exchange failed: ${token.status} ${await token.text()}`)
        const { access_token: accessToken, business_id: businessId } = await token.json() as { access_token: string, business_id: string }
        const business = await fetch(`${platform.base}/app-api/business`, { headers: { authorization: `Bearer ${accessToken}` } })
        const { name } = await business.json() as { name: string }
        studio.tokens.set(businessId, { accessToken, businessName: name })
        return page(200, html(`<h1 id="installed">Installed for ${name.replace(/</g, '&lt;')}</h1><p>Business ${businessId === pending.businessId ? 'matches' : 'differs'}</p>`))
      }
      if (url.pathname === '/block') return page(200, BLOCK(platform.storefrontSource))
      if (url.pathname === '/widget') return page(200, WIDGET)
      if (url.pathname.startsWith('/admin/')) return page(200, ADMIN_PAGE(new URL(platform.base).origin))
      page(404, 'not found')
    })().catch((error: unknown) => { response.writeHead(500); response.end(String(error)) })
  })
  studio.server.listen(0, '127.0.0.1')
  await once(studio.server, 'listening')
  t.teardown(() => { studio.server.close(); studio.server.closeAllConnections() })
  studio.origin = `http://127.0.0.1:${(studio.server.address() as AddressInfo).port}`
  return studio
}

/** The app's manifest: two blocks (a setting to edit; a known and an unknown iconName), a floating widget and an admin page with an icon. */
export const studioManifest = (origin: string) => ({
  blocks: [
    {
      blockType: 'hero', name: 'Hero banner', description: 'A big headline on a colour', category: 'marketing', iconName: 'star',
      renderUrl: `${origin}/block?kind=hero`,
      settingsSchema: { type: 'object', properties: { headline: { type: 'string', title: 'Headline', maxLength: 80 }, color: { type: 'string', format: 'color', title: 'Background' } }, additionalProperties: false },
      defaultConfig: { headline: 'Welcome', color: '#ffffff' }
    },
    {
      blockType: 'faq', name: 'FAQ', description: 'Questions and answers', category: 'support', iconName: 'no-such-icon', renderUrl: `${origin}/block?kind=faq`,
      settingsSchema: { type: 'object', properties: { headline: { type: 'string', title: 'Headline' } }, additionalProperties: false },
      defaultConfig: { headline: 'Questions?' }
    }
  ],
  embeds: [{
    embedType: 'chat', name: 'Chat bubble', description: 'Live chat on every page', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: `${origin}/widget`,
    settingsSchema: { type: 'object', properties: { greeting: { type: 'string', title: 'Greeting' } }, additionalProperties: false },
    defaultConfig: { greeting: 'Hi!' }
  }],
  adminPages: [{ pageId: 'reports', title: 'Reports', iconName: 'star', renderUrl: `${origin}/admin/reports` }]
})
