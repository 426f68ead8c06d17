import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { aim, describeMachine, formatSpread, percentile, printAims, ROUNDS, spread, writeJson } from './stats.ts'

/**
 * Hook overhead: the storefront checkout quote with three instant hooks (shipping rates, discounts,
 * payment methods, each its own app on a local receiver) against the same quote with none.
 * BENCH_QUOTES sequential quotes of each, one after the other, over BENCH_ROUNDS rounds: prints the
 * medians of p50 and p99 and of the difference, with their range. Aim: < 15 ms added at p50.
 */
const QUOTES = Number(process.env.BENCH_QUOTES ?? 300)
const REVIEWER = { email: 'bench-reviewer@example.com', password: 'bench-password' }

async function json (app: App, method: 'GET' | 'POST' | 'PUT', url: string, auth: string | null, payload?: unknown) {
  // the storefront's customer API answers on its own listener (DESIGN §14)
  const inject = url.startsWith('/store/') ? app.storefront.inject : app.inject.bind(app)
  const response = await inject({ method, url, headers: auth === null ? {} : { authorization: auth }, payload: payload as any })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json()
}

async function register (app: App, role: 'DEVELOPER' | 'MERCHANT', name: string) {
  const body = await json(app, 'POST', '/auth/register', null, { email: `${name}-${process.pid}@example.com`, password: 'bench-password', name, role, businessName: role === 'MERCHANT' ? name : undefined })
  return { auth: `Bearer ${body.token as string}`, businessId: body.businessId as string }
}

async function store (app: App, name: string) {
  const merchant = await register(app, 'MERCHANT', name)
  const me = await json(app, 'GET', '/auth/me', merchant.auth)
  const product = await json(app, 'POST', '/merchant/products', merchant.auth, { name: 'Pizza', price: 1200, stock: 1_000_000 })
  return { merchant, slug: me.business.slug as string, cart: { items: [{ productId: product.id as string, quantity: 2 }], deliveryMethod: 'DELIVERY', address: '1 Main St' } }
}

async function timeQuotes (app: App, slug: string, cart: unknown, warmUp: boolean): Promise<number[]> {
  if (warmUp) for (let i = 0; i < 20; i++) await json(app, 'POST', `/store/${slug}/api/checkout/quote`, null, cart)
  const samples: number[] = []
  for (let i = 0; i < QUOTES; i++) {
    const started = performance.now()
    await json(app, 'POST', `/store/${slug}/api/checkout/quote`, null, cart)
    samples.push(performance.now() - started)
  }
  return samples.sort((a, b) => a - b)
}

const receiver = createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    response.setHeader('content-type', 'application/json')
    if (request.url?.endsWith('/rates')) response.end('{"fee":250}')
    else if (request.url?.endsWith('/discounts')) response.end('{"discount":100,"reason":"Bench"}')
    else response.end('{"methods":[{"id":"qr","name":"QR"}]}')
  })
})
receiver.listen(0, '127.0.0.1')
await once(receiver, 'listening')
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`

// every quote comes from one address: the storefront's per-address limit would answer 429 after 60
const config = loadConfig({
  LOG_LEVEL: 'silent', DEMO_SEED: 'false', REVIEWER_EMAIL: REVIEWER.email, REVIEWER_PASSWORD: REVIEWER.password,
  STOREFRONT_RATE_LIMIT_PER_MINUTE: '100000000'
}, { inMemory: true })
const app = await buildApp({ config })
await app.ready()
try {
  const plain = await store(app, 'Plain')
  const hooked = await store(app, 'Hooked')
  const developer = await register(app, 'DEVELOPER', 'Dev')
  const reviewer = `Bearer ${(await json(app, 'POST', '/auth/login', null, REVIEWER)).token as string}`
  const hooks: Array<[string, string, string]> = [['checkout.shipping_rates', '/rates', 'write_shipping'], ['order.calculate_discounts', '/discounts', 'write_discounts'], ['checkout.payment_methods', '/methods', 'write_payments']]
  for (const [i, [hookPoint, url, scope]] of hooks.entries()) {
    const created = await json(app, 'POST', '/developer/apps', developer.auth, {
      name: `Hook app ${i}`, slug: `hook-app-${i}-${process.pid}`, description: 'bench', category: 'other', scopes: [scope],
      redirectUrl: 'https://app.example.com/cb', webhookUrl: receiverUrl
    })
    await json(app, 'PUT', `/developer/apps/${created.app.id as string}/manifest`, developer.auth, { manifest: { hooks: [{ hookPoint, url }] } })
    await json(app, 'POST', `/developer/apps/${created.app.id as string}/submit`, developer.auth)
    await json(app, 'POST', `/review/apps/${created.app.id as string}/approve`, reviewer, {})
    const consent = await json(app, 'POST', '/oauth/authorize', hooked.merchant.auth, { response_type: 'code', client_id: created.app.clientId, redirect_uri: 'https://app.example.com/cb', decision: 'approve' })
    const code = new URL(consent.redirectTo as string).searchParams.get('code')
    await app.inject({
      method: 'POST', url: '/oauth/token',
      headers: { authorization: `Basic ${Buffer.from(`${created.app.clientId as string}:${created.clientSecret as string}`).toString('base64')}` },
      payload: { grant_type: 'authorization_code', code, redirect_uri: 'https://app.example.com/cb' }
    })
  }
  const check = await json(app, 'POST', `/store/${hooked.slug}/api/checkout/quote`, null, hooked.cart)
  if (check.deliveryFee !== 250 || check.appDiscount !== 100 || check.paymentMethods.length !== 3) throw new Error(`hooks not applied: ${JSON.stringify(check)}`)

  const rounds: Array<{ none: number[], three: number[] }> = []
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({ none: await timeQuotes(app, plain.slug, plain.cart, round === 0), three: await timeQuotes(app, hooked.slug, hooked.cart, round === 0) })
  }
  const figures = {
    none: { p50: spread(rounds.map((r) => percentile(r.none, 0.5))), p99: spread(rounds.map((r) => percentile(r.none, 0.99))) },
    three: { p50: spread(rounds.map((r) => percentile(r.three, 0.5))), p99: spread(rounds.map((r) => percentile(r.three, 0.99))) },
    added: spread(rounds.map((r) => percentile(r.three, 0.5) - percentile(r.none, 0.5)))
  }
  const row = (label: string, f: typeof figures.none) => `${label.padEnd(22)} p50 ${formatSpread(f.p50, 2, ' ms').padStart(24)}   p99 ${formatSpread(f.p99, 2, ' ms').padStart(24)}`
  console.log(`\nCheckout quote, ${QUOTES} sequential requests each per round (embedded PGlite, in-process inject, hooks over real HTTP on 127.0.0.1)`)
  console.log(`${describeMachine()}; median (min–max) over the rounds`)
  console.log(row('no hooks', figures.none))
  console.log(row('three instant hooks', figures.three))
  console.log(`hook overhead at p50: ${formatSpread(figures.added, 2, ' ms')}\n`)
  const aims = [aim('hook overhead at p50 < 15 ms', figures.added.median < 15, formatSpread(figures.added, 2, ' ms'))]
  printAims(aims)
  writeJson('hooks', { quotes: QUOTES, ...figures }, aims)
} finally {
  await app.close()
  receiver.close()
}
