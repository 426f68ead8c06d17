import t from 'tap'
import { connect, type Socket } from 'node:net'
import { once } from 'node:events'
import { build, listen, until } from '../helper.ts'

const SLOW_CLIENTS = 20

/** Opens a connection that sends its headers, then one body byte every 200 ms of a body it never finishes. */
async function slowBody (port: number, path: string): Promise<{ socket: Socket, closed: () => boolean, answer: () => string }> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let closed = false
  let answer = ''
  socket.on('data', (chunk) => { answer += String(chunk) })
  socket.on('close', () => { closed = true })
  socket.on('error', () => {})
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`)
  const drip = setInterval(() => { if (!closed) socket.write(' ') }, 200)
  socket.on('close', () => clearInterval(drip))
  return { socket, closed: () => closed, answer: () => answer }
}

t.test('slow bodies are cut off on the admin/API listener and the storefront\'s', async (t) => {
  const app = await build(t, { env: { HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_HEADERS_TIMEOUT_MS: '1000' } })
  await listen(app)
  const apiPort = (app.server.address() as { port: number }).port
  const storefrontPort = Number(new URL(app.origins.storefrontUrl).port)
  const clients = await Promise.all([
    ...Array.from({ length: SLOW_CLIENTS }, async () => await slowBody(apiPort, '/auth/login')),
    slowBody(storefrontPort, '/store/x/api/cart')
  ])
  t.teardown(() => { for (const client of clients) client.socket.destroy() })
  const started = Date.now()
  const closed = await until(async () => clients.filter((c) => c.closed()).length, (n) => n === clients.length, 15_000)
  t.equal(closed, clients.length, `all ${clients.length} closed, after ${Date.now() - started} ms`)
  t.match(clients[0].answer(), /^HTTP\/1\.1 408/, 'answered 408 Request Timeout')

  const health = await fetch(`http://127.0.0.1:${apiPort}/health`)
  t.equal(health.status, 200, 'the listener still serves')
})

t.test('trickled headers are cut off too, and idle keep-alive connections closed', async (t) => {
  const app = await build(t, { env: { HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '500' } })
  await listen(app)
  const port = (app.server.address() as { port: number }).port
  const socket = connect(port, '127.0.0.1')
  t.teardown(() => socket.destroy())
  await once(socket, 'connect')
  let closed = false
  socket.on('close', () => { closed = true })
  socket.on('error', () => {})
  socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
  const drip = setInterval(() => { if (!closed) socket.write('X-Slow: 1\r\n') }, 200)
  t.teardown(() => clearInterval(drip))
  await until(async () => closed, (c) => c, 10_000)
  t.ok(closed, 'headers never finished: closed')

  const idle = connect(port, '127.0.0.1')
  t.teardown(() => idle.destroy())
  await once(idle, 'connect')
  let idleClosed = false
  idle.on('close', () => { idleClosed = true })
  idle.resume()
  idle.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  await until(async () => idleClosed, (c) => c, 10_000)
  t.ok(idleClosed, 'an idle keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS')
})
