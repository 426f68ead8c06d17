import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { App } from '../../../server/app.ts'
import { createProduct } from '../../../plugins/commerce/products-service.ts'
import { createOrder } from '../../../plugins/commerce/checkout-service.ts'
import { createApp, registerUser, type Session } from '../../helper.ts'

export interface Received { headers: IncomingHttpHeaders, body: string, at: number }
export interface Answer { status?: number, delayMs?: number, headers?: Record<string, string>, body?: string }

/** A real HTTP receiver on 127.0.0.1; `answer` decides per request (default 200 at once). */
export async function receiver (t: Test, answer: (request: IncomingMessage, index: number) => Answer = () => ({})) {
  const received: Received[] = []
  const waiters: Array<() => void> = []
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const index = received.length
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      for (const wake of waiters.splice(0)) wake()
      const reply = answer(request, index)
      const send = () => {
        if (response.destroyed) return
        response.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers })
        response.end(reply.body ?? 'ok')
      }
      if (reply.delayMs !== undefined) setTimeout(send, reply.delayMs)
      else send()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /**
     * Resolves once `count` requests have arrived, woken by each arrival: however long the work takes
     * (a loaded machine is slower, not wrong); the test file's own timeout ends a wait that never would.
     */
    async waitFor (count: number): Promise<Received[]> {
      while (received.length < count) await new Promise<void>((resolve) => { waiters.push(resolve) })
      return received
    }
  }
}

export interface Installed {
  developer: Session, appId: string, installationId: string, businessId: string, accessToken: string,
  webhookSecret: string, auth: { authorization: string }
}

/** A developer's app test-installed on their sandbox business. */
export async function installApp (app: App, overrides: Record<string, unknown> = {}, developer?: Session): Promise<Installed> {
  const dev = developer ?? await registerUser(app, 'DEVELOPER')
  const created = await createApp(app, dev, { scopes: ['read_products', 'read_orders'], ...overrides })
  const response = await app.inject({ method: 'POST', url: `/developer/apps/${created.app.id}/test-install`, headers: dev.auth })
  if (response.statusCode !== 201) throw new Error(`test install failed: ${response.statusCode} ${response.body}`)
  const body = response.json()
  return { developer: dev, appId: created.app.id, ...body, auth: { authorization: `Bearer ${body.accessToken}` } }
}

export async function registerWebhook (app: App, installed: Installed, url: string, events: string[] = ['order.created']) {
  const response = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url, events } })
  if (response.statusCode !== 201) throw new Error(`webhook registration failed: ${response.statusCode} ${response.body}`)
  return response.json() as { id: string, secret: string } & Record<string, unknown>
}

/** A guest order through the commerce service (the checkout pipeline and its outbox event). */
export async function placeOrder (app: App, businessId: string) {
  return await app.db.transaction(async (tx) => {
    const product = await createProduct(tx, businessId, { name: 'Webhook widget', price: 1500, stock: 1000 } as Parameters<typeof createProduct>[2])
    return await createOrder(tx, businessId, {
      items: [{ productId: product.id, quantity: 2 }], customer: { name: 'Ada' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH'
    } as Parameters<typeof createOrder>[2])
  })
}

export { until } from '../../helper.ts'
