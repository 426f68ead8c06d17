import { createServer, type IncomingHttpHeaders } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { App } from '../../../server/app.ts'
import { createApp, oauthInstall, publishApp, registerUser, type Installed, type Session } from '../../helper.ts'
import { createProduct } from '../commerce/fixtures.ts'

export interface Received { path: string, body: any, raw: string, headers: IncomingHttpHeaders, at: number }
export interface Reply { status?: number, json?: unknown, text?: string, delayMs?: number }
export type Handler = (received: Received) => Reply | Promise<Reply>

/** A third-party app's server on 127.0.0.1: answers hook calls with the test's handlers, and records them. */
export async function startAppServer (t: Test, handlers: Record<string, Handler>) {
  const calls: Received[] = []
  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk) => { raw += chunk })
    request.on('end', () => {
      const received: Received = { path: request.url ?? '/', body: raw === '' ? null : JSON.parse(raw), raw, headers: request.headers, at: Date.now() }
      calls.push(received)
      const handler = handlers[received.path]
      void Promise.resolve(handler === undefined ? { status: 404, json: { error: 'no handler' } } : handler(received)).then((reply) => {
        const answer = () => {
          if (response.destroyed) return
          response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
          response.end(reply.text ?? JSON.stringify(reply.json ?? {}))
        }
        // a slow app: the receiver answers late (what the hook timeout is about); the test waits for the platform, not for this
        if (reply.delayMs !== undefined) setTimeout(answer, reply.delayMs).unref()
        else answer()
      })
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, handlers }
}

export interface HookApp { appId: string, installed: Installed }

/** An approved app with these hooks, installed on the merchant's business through OAuth. */
export async function installHookApp (app: App, developer: Session, merchant: Session, baseUrl: string, hooks: Array<Record<string, unknown>>,
  scopes: string[]): Promise<HookApp> {
  const { app: created, clientSecret } = await createApp(app, developer, { webhookUrl: `${baseUrl}/base`, scopes })
  const manifest = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { hooks } } })
  if (manifest.statusCode !== 200) throw new Error(`manifest: ${manifest.body}`)
  await publishApp(app, developer, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  return { appId: created.id, installed }
}

/** A merchant with a store slug and two products to buy. */
export async function shop (app: App) {
  const merchant = await registerUser(app, 'MERCHANT')
  const me = (await app.inject({ url: '/auth/me', headers: merchant.auth })).json()
  const pizza = await createProduct(app, merchant, { name: 'Pizza', price: 1200, stock: 50 })
  const soda = await createProduct(app, merchant, { name: 'Soda', price: 300, stock: 50 })
  return { merchant, slug: me.business.slug as string, pizza, soda }
}

export const cart = (pizzaId: string, sodaId: string) => ({ items: [{ productId: pizzaId, quantity: 2 }, { productId: sodaId, quantity: 1 }], deliveryMethod: 'DELIVERY', address: '1 Main St', locality: 'Downtown' })
export const customer = { name: 'Ada', phone: '+15550100', email: 'ada@example.com' }
export { registerUser }
