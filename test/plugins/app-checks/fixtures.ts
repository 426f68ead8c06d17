import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { Webhook } from 'standardwebhooks'
import type { App } from '../../../server/app.ts'
import { createApp, registerUser, type Session, portsOf } from '../../helper.ts'

/** How the receiver misbehaves: each flag breaks one check one way. */
export interface Faults {
  acceptsForgedSignatures?: boolean
  erasureAnswers500?: boolean
  blockDeniesFraming?: boolean
  slowHook?: boolean
  wrongHookShape?: boolean
  scriptAsHtml?: boolean
  /** The App URL starts OAuth with another app's client id. */
  wrongClientId?: boolean
  /** The App URL starts OAuth without PKCE. */
  noPkce?: boolean
  /** Holds every webhook until released (a run that stays RUNNING). */
  holdWebhooks?: Promise<void>
}

export interface Receiver {
  url: string
  faults: Faults
  /** The sandbox installation's webhook secret, once known. */
  secret: string
  /** How it verifies signatures: the app's webhookSignatureScheme. */
  scheme: 'spec' | 'standard-webhooks'
  received: Array<{ method: string, path: string, event?: string }>
}

// generous enough for a loaded test machine; the slow hook answers at three times it
const HOOK_TIMEOUT_MS = 1000

function body (request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = ''
    request.on('data', (chunk) => { raw += chunk })
    request.on('end', () => resolve(raw))
  })
}

/**
 * The spec's receiver rule: a valid signature over "<timestamp>.<raw body>" and a timestamp under 5 minutes old;
 * under Standard Webhooks, what its reference library accepts (a test install's whsec_test_ secret read as whsec_).
 */
function signedWell (request: IncomingMessage, raw: string, secret: string, scheme: Receiver['scheme'] = 'spec'): boolean {
  if (scheme === 'standard-webhooks') {
    try {
      new Webhook(secret.replace(/^whsec_test_/, 'whsec_')).verify(raw, request.headers as Record<string, string>)
      return true
    } catch {
      return false
    }
  }
  const timestamp = Number(request.headers['x-webhook-timestamp'])
  const given = String(request.headers['x-webhook-signature'] ?? '')
  const wanted = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`
  const fresh = Math.abs(Date.now() / 1000 - timestamp) < 300
  return fresh && given.length === wanted.length && timingSafeEqual(Buffer.from(given), Buffer.from(wanted))
}

/**
 * A third-party app's server on 127.0.0.1 that does everything right (OAuth entry, signed webhooks,
 * a hook, a frameable block and admin page, a script embed) until a fault flag says otherwise.
 */
export async function startReceiver (t: Test, adminOrigin: () => string, storefrontOrigin: () => string, clientId: () => string): Promise<Receiver> {
  const receiver: Receiver = { url: '', faults: {}, secret: '', scheme: 'spec', received: [] }
  const send = (response: ServerResponse, status: number, type: string, text: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': type, ...headers })
    response.end(text)
  }
  const server = createServer((request, response) => {
    void body(request).then(async (raw) => {
      const path = (request.url ?? '/').split('?')[0]
      const event = raw === '' ? undefined : (JSON.parse(raw) as { event?: string, hookPoint?: string }).event
      receiver.received.push({ method: request.method ?? 'GET', path, event })
      const f = receiver.faults
      if (path === '/app') {
        const authorize = new URL('/oauth/authorize', adminOrigin())
        for (const [name, value] of Object.entries({
          response_type: 'code', client_id: f.wrongClientId === true ? 'app_someone_else' : clientId(), redirect_uri: `${receiver.url}/callback`, state: 'state-0123456789',
          ...(f.noPkce === true ? {} : { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })
        })) authorize.searchParams.set(name, value)
        return send(response, 302, 'text/plain', '', { location: authorize.toString() })
      }
      if (path === '/callback') return send(response, 400, 'text/html', '<p>Install link expired</p>')
      if (path === '/webhooks') {
        if (f.holdWebhooks !== undefined) await f.holdWebhooks
        if (!f.acceptsForgedSignatures && !signedWell(request, raw, receiver.secret, receiver.scheme)) return send(response, 401, 'application/json', '{"error":"bad signature"}')
        if (event === 'business.data_erasure' && f.erasureAnswers500 === true) return send(response, 500, 'application/json', '{"error":"boom"}')
        return send(response, 200, 'application/json', '{"received":true}')
      }
      if (path === '/webhooks/hooks/shipping') {
        if (!signedWell(request, raw, receiver.secret, receiver.scheme)) return send(response, 401, 'application/json', '{}')
        const answer = () => { if (!response.destroyed) send(response, 200, 'application/json', JSON.stringify(f.wrongHookShape === true ? { fee: 'free' } : { fee: 0 })) }
        // a slow app answers after the hook's timeout, by itself: the test waits for the check, not for this
        if (f.slowHook === true) setTimeout(answer, HOOK_TIMEOUT_MS * 3).unref()
        else answer()
        return
      }
      if (path === '/block') {
        return send(response, 200, 'text/html; charset=utf-8', '<!doctype html><p>Block</p>',
          f.blockDeniesFraming === true ? { 'x-frame-options': 'DENY' } : { 'content-security-policy': `frame-ancestors ${storefrontOrigin()}` })
      }
      if (path === '/widget.js') return send(response, 200, f.scriptAsHtml === true ? 'text/html' : 'text/javascript', 'console.log("widget")')
      if (path === '/admin') return send(response, 200, 'text/html', '<!doctype html><p>Admin</p>', { 'content-security-policy': `frame-ancestors ${adminOrigin()}` })
      return send(response, 404, 'application/json', '{}')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return receiver
}

export const MANIFEST = (url: string) => ({
  blocks: [{ blockType: 'banner', name: 'Banner', renderUrl: `${url}/block` }],
  embeds: [{ embedType: 'widget', name: 'Widget', kind: 'GLOBAL_SCRIPT', position: 'body_end', scriptUrl: `${url}/widget.js` }],
  hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/hooks/shipping', timeout: HOOK_TIMEOUT_MS }],
  adminPages: [{ pageId: 'home', title: 'Home', renderUrl: `${url}/admin` }]
})

/** A developer, their app pointing at the receiver, and its test install on the sandbox (the receiver learns the secret). */
export async function receiverApp (t: Test, app: App, scopes = ['read_orders', 'write_shipping'], scheme: Receiver['scheme'] = 'spec') {
  let clientId = ''
  let storefront = ''
  const receiver = await startReceiver(t, () => new URL(app.origins.adminUrl).origin, () => storefront, () => clientId)
  receiver.scheme = scheme
  const developer: Session = await registerUser(app, 'DEVELOPER')
  // the sandbox store's own storefront origin frames the blocks
  const sandbox = (await app.inject({ url: '/merchant/business', headers: developer.auth })).json()
  storefront = new URL(app.origins.storefrontOrigin(sandbox.slug)).origin
  const { app: created } = await createApp(app, developer, {
    scopes, appUrl: `${receiver.url}/app`, redirectUrl: `${receiver.url}/callback`, webhookUrl: `${receiver.url}/webhooks`, webhookEvents: ['order.created'], webhookSignatureScheme: scheme
  })
  clientId = created.clientId
  const manifest = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: MANIFEST(receiver.url) } })
  if (manifest.statusCode !== 200) throw new Error(`manifest: ${manifest.body}`)
  const installed = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })
  if (installed.statusCode !== 201) throw new Error(`test install: ${installed.body}`)
  receiver.secret = installed.json().webhookSecret
  return { receiver, developer, appId: created.id as string, app: created }
}

export interface RunView {
  id: string
  status: string
  version: string
  finishedAt: string | null
  startedAt: string
  progress: { done: number, total: number }
  results: Array<{ id: string, outcome: string, detail: string, fix: string | null, evidence: Array<Record<string, any>> }>
}

/** Starts a run through the API and waits for it to finish; returns the run. */
export async function runChecks (app: App, developer: Session, appId: string) {
  const started = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/checks`, headers: developer.auth })
  if (started.statusCode !== 202) throw new Error(`start: ${started.statusCode} ${started.body}`)
  await portsOf(app).appChecks.idle()
  const run = await app.inject({ url: `/developer/apps/${appId}/checks/${started.json().checkRunId as string}`, headers: developer.auth })
  return run.json() as RunView
}

export const outcomes = (run: { results: Array<{ id: string, outcome: string }> }) => Object.fromEntries(run.results.map((r) => [r.id, r.outcome]))
