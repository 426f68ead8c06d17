import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddressInfo } from 'node:net'
import { buildApp, type App } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { aim, describeMachine, formatSpread, printAims, ROUNDS, spread, writeJson } from './stats.ts'

/**
 * What the local relay adds to a checkout (DESIGN §19): the storefront quote of a sandbox whose app
 * answers checkout.shipping_rates, called directly over HTTP, then through `app-platform listen` (the
 * built CLI as a child process, forwarding to the same local receiver). BENCH_QUOTES sequential
 * quotes of each per round over BENCH_ROUNDS rounds; prints the medians of p50 and p99 and of the
 * difference, with their range. Aim: < 50 ms added at p50.
 */
const QUOTES = Number(process.env.BENCH_QUOTES ?? 200)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]

async function json (app: App, method: 'GET' | 'POST' | 'PUT', url: string, auth: string | null, payload?: unknown) {
  const inject = url.startsWith('/store/') ? app.storefront.inject : app.inject.bind(app)
  const response = await inject({ method, url, headers: auth === null ? {} : { authorization: auth }, payload: payload as any })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.body === '' ? null : response.json()
}

async function timeQuotes (app: App, slug: string, cart: unknown): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < QUOTES; i++) {
    const started = performance.now()
    const quoted = await json(app, 'POST', `/store/${slug}/api/checkout/quote`, null, cart)
    samples.push(performance.now() - started)
    if (quoted.deliveryFee !== 250) throw new Error(`the hook's fee was not applied: ${JSON.stringify(quoted)}`)
  }
  return samples.sort((a, b) => a - b)
}

/**
 * Ends a `listen` child as Ctrl-C would (SIGINT), and kills it if it has not exited 5 s later: a
 * process started under a runner that ignores SIGINT (tap's test processes) inherits the ignoring.
 */
async function stopListener (child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGINT')
  const kill = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(kill)
}

const receiver = createServer((request, response) => {
  request.resume()
  request.on('end', () => { response.setHeader('content-type', 'application/json'); response.end('{"fee":250}') })
}).listen(0, '127.0.0.1')
await once(receiver, 'listening')
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`

execFileSync(process.execPath, [join(ROOT, 'cli/build.mjs')], { stdio: 'inherit' })
const home = mkdtempSync(join(tmpdir(), 'bench-relay-'))
const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false', STOREFRONT_RATE_LIMIT_PER_MINUTE: '100000000', PORT: '0', HOST: '127.0.0.1' }, { inMemory: true })
const app = await buildApp({ config })
await app.listen({ port: 0, host: '127.0.0.1' })
const server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
let listener: ReturnType<typeof spawn> | null = null
try {
  const developer = await json(app, 'POST', '/auth/register', null, { email: `bench-relay-${process.pid}@example.com`, password: 'bench-password', name: 'Dev', role: 'DEVELOPER' })
  const auth = `Bearer ${developer.token as string}`
  const created = await json(app, 'POST', '/developer/apps', auth, {
    name: 'Relay bench', slug: `relay-bench-${process.pid}`, description: 'bench', category: 'other', scopes: ['write_shipping'],
    redirectUrl: 'https://app.example.com/cb', webhookUrl: receiverUrl
  })
  const appId = created.app.id as string
  await json(app, 'PUT', `/developer/apps/${appId}/manifest`, auth, { manifest: { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }] } })
  await json(app, 'POST', `/developer/apps/${appId}/test-install`, auth)
  const me = await json(app, 'GET', '/auth/me', auth)
  const product = await json(app, 'POST', '/merchant/products', auth, { name: 'Pizza', price: 1200, stock: 1_000_000 })
  const slug = me.business.slug as string
  const cart = { items: [{ productId: product.id as string, quantity: 1 }], deliveryMethod: 'DELIVERY', address: '1 Main St' }

  // a CLI login through the device flow, stored where the CLI looks for it
  const device = await json(app, 'POST', '/oauth/device_authorization', null, { client_id: 'app-platform-cli', device_name: 'bench' })
  await json(app, 'POST', '/oauth/device', auth, { user_code: device.user_code, decision: 'approve' })
  const token = await json(app, 'POST', '/oauth/token', null, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: 'app-platform-cli' })
  mkdirSync(join(home, 'app-platform'), { recursive: true, mode: 0o700 })
  writeFileSync(join(home, 'app-platform', 'credentials.json'), JSON.stringify({ [server]: { token: token.access_token, email: 'bench', expiresAt: '' } }), { mode: 0o600 })

  const rounds: Array<{ direct: number[], relayed: number[] }> = []
  for (let round = 0; round < ROUNDS; round++) {
    const direct = await timeQuotes(app, slug, cart)
    const child = listener = spawn(process.execPath, [join(ROOT, 'cli/dist/app-platform.js'), 'listen', '--app', appId, '--forward-to', receiverUrl, '--json', '--server', server], {
      env: { PATH: process.env.PATH, XDG_CONFIG_HOME: home, HOME: home }, stdio: ['ignore', 'pipe', 'inherit']
    })
    let output = ''
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => { output += String(chunk); if (output.includes('"ready"')) resolve() })
      child.once('exit', (code) => reject(new Error(`listen exited (${String(code)}): ${output}`)))
    })
    const relayed = await timeQuotes(app, slug, cart)
    await stopListener(child)
    listener = null
    rounds.push({ direct, relayed })
  }
  const figures = {
    direct: { p50: spread(rounds.map((r) => percentile(r.direct, 0.5))), p99: spread(rounds.map((r) => percentile(r.direct, 0.99))) },
    relayed: { p50: spread(rounds.map((r) => percentile(r.relayed, 0.5))), p99: spread(rounds.map((r) => percentile(r.relayed, 0.99))) },
    added: spread(rounds.map((r) => percentile(r.relayed, 0.5) - percentile(r.direct, 0.5)))
  }
  const row = (label: string, f: typeof figures.direct) => `${label.padEnd(26)} p50 ${formatSpread(f.p50, 2, ' ms').padStart(24)}   p99 ${formatSpread(f.p99, 2, ' ms').padStart(24)}`
  console.log(`\nCheckout quote with one checkout.shipping_rates hook, ${QUOTES} sequential requests each per round (embedded PGlite, the CLI as a child process)`)
  console.log(`${describeMachine()}; median (min–max) over the rounds`)
  console.log(row('direct (HTTP to the app)', figures.direct))
  console.log(row('through app-platform listen', figures.relayed))
  console.log(`relay overhead at p50: ${formatSpread(figures.added, 2, ' ms')}\n`)
  const aims = [aim('relay overhead at p50 < 50 ms', figures.added.median < 50, formatSpread(figures.added, 2, ' ms'))]
  printAims(aims)
  writeJson('relay', { quotes: QUOTES, ...figures }, aims)
} finally {
  if (listener !== null) await stopListener(listener)
  await app.close()
  receiver.close()
  rmSync(home, { recursive: true, force: true })
}
