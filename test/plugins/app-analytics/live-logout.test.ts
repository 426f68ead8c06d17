import t from 'tap'
import { sql } from 'drizzle-orm'
import { build, listen, within } from '../../helper.ts'
import { installApp } from '../webhooks/helpers.ts'
import { SESSION_REVOKED_CHANNEL } from '../../../plugins/auth/revocations.ts'

// issue #25 item 10: a live tail opened before logout must not keep streaming to a signed-out session
t.test('signing out ends the live tails of that session, and only those', async (t) => {
  const app = await build(t)
  const url = await listen(app)
  const installed = await installApp(app)
  const dev = installed.developer
  const login = async () => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: dev.email, password: 'correct-horse' } })
    t.equal(response.statusCode, 200)
    return { authorization: `Bearer ${response.json().token as string}` }
  }

  async function openTail (headers: Record<string, string>) {
    const controller = new AbortController()
    t.teardown(() => controller.abort())
    const response = await fetch(`${url}/developer/apps/${installed.appId}/live`, { headers, signal: controller.signal })
    t.equal(response.status, 200)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    let ended = false
    // resolves once the server has ended the stream
    const done = (async () => {
      try {
        for (;;) {
          const chunk = await reader.read()
          if (chunk.done) { ended = true; return }
          text += decoder.decode(chunk.value, { stream: true })
        }
      } catch {
        // aborted by the test's teardown: this stream was still open
      }
    })()
    return { done, read: () => text, get ended () { return ended } }
  }
  // a bound, not a wait: a stream that is not ended stays open for 15 minutes
  const endedWithin = async (tail: { done: Promise<void> }, ms: number) => { await within(tail.done, ms, 'the stream ending').catch(() => {}) }
  const until = async (check: () => boolean) => { while (!check()) await new Promise((resolve) => setImmediate(resolve)) }

  const first = await openTail(dev.auth)
  const secondAuth = await login()
  const second = await openTail(secondAuth)
  const kept = await openTail(await login())
  await until(() => /event: ready/.test(first.read()) && /event: ready/.test(second.read()) && /event: ready/.test(kept.read()))

  t.test('POST /auth/logout ends the stream opened with that session', async (t) => {
    t.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: dev.auth })).statusCode, 204)
    await endedWithin(first, 60_000)
    t.ok(first.ended, 'the stream ended')
    t.notOk(second.ended, 'another session of the same developer keeps its stream')
  })

  t.test('a logout in another process (its NOTIFY) ends it here too', async (t) => {
    const token = secondAuth.authorization.slice('Bearer '.length)
    const { jti, exp } = app.jwt.decode<{ jti: string, exp: number }>(token) as { jti: string, exp: number }
    // what another process's logout sends once its transaction commits
    await app.db.execute(sql`select pg_notify(${SESSION_REVOKED_CHANNEL}, ${`${jti} ${exp * 1000}`})`)
    await endedWithin(second, 60_000)
    t.ok(second.ended)
    t.notOk(kept.ended, 'a session still signed in keeps streaming')
    t.match(kept.read(), /event: ready/)
  })
})
