import t from 'tap'
import { build } from '../helper.ts'

t.test('X-Request-Id from the client is kept only in a safe shape', async (t) => {
  const app = await build(t)
  const kept = await app.inject({ url: '/health', headers: { 'x-request-id': 'trace-01:abc.DEF_9' } })
  t.equal(kept.headers['x-request-id'], 'trace-01:abc.DEF_9', 'a tracing id is echoed')
  for (const hostile of ['a b', 'x'.repeat(129), '"},"level":60,"msg":"forged', '<script>', 'id\u0007bell', '']) {
    const response = await app.inject({ url: '/health', headers: { 'x-request-id': hostile } })
    const id = String(response.headers['x-request-id'])
    t.not(id, hostile, `${JSON.stringify(hostile.slice(0, 30))}: not trusted`)
    t.match(id, /^[0-9a-f-]{36}$/, 'a generated id instead')
  }
})
