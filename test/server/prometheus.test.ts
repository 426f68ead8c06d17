import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { build, listen, until, portsOf } from '../helper.ts'
import { freePort } from '../process.ts'
import { installApp, placeOrder, receiver, registerWebhook } from '../plugins/webhooks/helpers.ts'

/** Debian's `prometheus` (CI installs it: .ci/run's services step). */
const PROMETHEUS = '/usr/bin/prometheus'
/** Short, so the series appear within a second or two of the traffic. */
const SCRAPE_INTERVAL = '250ms'
/** A bound on each wait for Prometheus, so a broken scrape fails with what it saw instead of running out the file's time. */
const WAIT_MS = 60_000

interface Vector { metric: Record<string, string>, value: [number, string] }

t.test('a real Prometheus scrapes GET /metrics and answers queries about deliveries and request latencies', { skip: existsSync(PROMETHEUS) ? false : `${PROMETHEUS} is not installed (apt-get install prometheus)` }, async (t) => {
  const app = await build(t)
  const base = new URL(await listen(app))

  const dir = mkdtempSync(join(tmpdir(), 'prometheus-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'prometheus.yml'), [
    'global:',
    `  scrape_interval: ${SCRAPE_INTERVAL}`,
    `  scrape_timeout: ${SCRAPE_INTERVAL}`,
    'scrape_configs:',
    '  - job_name: app-platform',
    `    static_configs: [{ targets: ["${base.host}"] }]`,
    ''
  ].join('\n'))
  const port = await freePort()
  let output = ''
  const prometheus = spawn(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`
  ], { stdio: ['ignore', 'pipe', 'pipe'] })
  prometheus.stdout.on('data', (chunk: Buffer) => { output += String(chunk) })
  prometheus.stderr.on('data', (chunk: Buffer) => { output += String(chunk) })
  t.teardown(async () => {
    if (prometheus.exitCode !== null) return
    prometheus.kill('SIGTERM')
    await once(prometheus, 'exit')
  })

  const api = `http://127.0.0.1:${port}/api/v1`
  async function query (expression: string): Promise<Vector[]> {
    try {
      const response = await fetch(`${api}/query?query=${encodeURIComponent(expression)}`)
      const body = await response.json() as { status: string, data: { result: Vector[] } }
      return body.status === 'success' ? body.data.result : []
    } catch {
      return [] // not listening yet
    }
  }
  const value = (vector: Vector[]) => vector.length === 0 ? 0 : Number(vector[0].value[1])

  const up = await until(async () => await query('up{job="app-platform"}'), (result) => value(result) === 1, WAIT_MS)
  t.equal(value(up), 1, `Prometheus scrapes the server (its output: ${output.slice(-2000)})`)

  // traffic: App API reads and an order whose webhook is delivered
  const installed = await installApp(app)
  const target = await receiver(t)
  await registerWebhook(app, installed, target.url)
  for (let i = 0; i < 5; i++) await fetch(new URL('/app-api/products', base), { headers: installed.auth })
  for (let i = 0; i < 3; i++) await placeOrder(app, installed.businessId)
  await target.waitFor(3)
  await portsOf(app).webhooks.delivery.idle()

  const deliveries = await until(async () => await query('sum(webhook_delivery_attempts_total{outcome="succeeded"})'), (result) => value(result) >= 3, WAIT_MS)
  t.equal(value(deliveries), 3, 'the three deliveries, by outcome')
  const attemptLatency = await query('sum(webhook_delivery_attempt_duration_seconds_count{outcome="succeeded"})')
  t.equal(value(attemptLatency), 3, 'with their latency histogram')

  const requests = await until(async () => await query('sum(http_request_duration_seconds_count{route="/app-api/products",status_class="2xx"})'),
    (result) => value(result) >= 5, WAIT_MS)
  t.equal(value(requests), 5, 'the App API requests, by route pattern and status class')
  const p99 = await query('histogram_quantile(0.99, sum by (le) (http_request_duration_seconds_bucket{route="/app-api/products"}))')
  t.ok(value(p99) > 0 && Number.isFinite(value(p99)), `a p99 latency Prometheus computes from the buckets (${value(p99)} s)`)
  const memory = await query('process_resident_memory_bytes{job="app-platform"}')
  t.ok(value(memory) > 0, 'process memory')
})
