import t from 'tap'
import { build, createApp, registerUser, SERVER_URL, testDatabaseUrl, portsOf } from '../../helper.ts'
import type { RelayCallRow } from '../../../plugins/relay/service.ts'

const request = (appId: string, businessId: string, timeoutMs: number) => ({
  appId, businessId, kind: 'hook' as const, name: 'checkout.shipping_rates', url: 'https://app.example/webhooks/rates?v=1', headers: { 'x-webhook-signature': 'sig' }, body: '{"a":1}', timeoutMs
})

t.test('the relay', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)

  t.test('no session: null, the caller uses the network', async (t) => {
    t.equal(await portsOf(app).relay.call(request(created.id, developer.businessId, 1000)), null)
  })

  t.test('a session answers through the table and NOTIFY; answering again is refused', async (t) => {
    const seen: RelayCallRow[] = []
    const session = await portsOf(app).relay.connect(created.id, developer.businessId, (row) => {
      seen.push(row)
      void portsOf(app).relay.answer(created.id, row.id, { status: 200, headers: { 'content-type': 'application/json' }, body: '{"fee":1}' })
    })
    t.teardown(session.disconnect)
    const outcome = await portsOf(app).relay.call(request(created.id, developer.businessId, 5000))
    t.match(outcome, { answered: true, answer: { status: 200, body: '{"fee":1}' } })
    t.match(seen, [{ kind: 'hook', name: 'checkout.shipping_rates', path: '/webhooks/rates?v=1', body: '{"a":1}', headers: { 'x-webhook-signature': 'sig' } }])
    t.equal(await portsOf(app).relay.answer(created.id, seen[0]?.id ?? '', { status: 500, headers: {}, body: '' }), false, 'once')
    t.equal(await portsOf(app).relay.call(request(created.id, 'biz_someone_else', 5000)), null, 'another business (a merchant\'s install) is never relayed')
    await session.disconnect()
    t.equal(await portsOf(app).relay.call(request(created.id, developer.businessId, 1000)), null, 'after the session leaves, the network again')
  })

  t.test('no answer within the call\'s timeout is a timeout; a reconnect is sent what still waits', async (t) => {
    const first = await portsOf(app).relay.connect(created.id, developer.businessId, () => {})
    const waiting = portsOf(app).relay.call(request(created.id, developer.businessId, 30_000))
    const expired = await portsOf(app).relay.call(request(created.id, developer.businessId, 50))
    t.match(expired, { answered: false })
    await first.disconnect()
    // the stream dropped; the developer's CLI reconnects while the first call still waits
    const second = await portsOf(app).relay.connect(created.id, developer.businessId, () => {})
    t.teardown(second.disconnect)
    const resumed = second.pending.find((row) => row.timeoutMs === 30_000)
    t.ok(resumed, 'the waiting call is handed to the new session')
    t.notOk(second.pending.some((row) => row.timeoutMs === 50), 'not the one whose time ran out')
    const other = await registerUser(app, 'DEVELOPER')
    const { app: theirs } = await createApp(app, other)
    t.equal(await portsOf(app).relay.answer(theirs.id, resumed?.id ?? '', { status: 200, headers: {}, body: '' }), false, 'another app\'s call is not theirs to answer')
    t.equal(await portsOf(app).relay.answer(created.id, resumed?.id ?? '', { status: 200, headers: {}, body: 'late but in time' }), true)
    t.match(await waiting, { answered: true, answer: { body: 'late but in time' } })
  })
})

t.test('two processes on one PostgreSQL: the stream held by one, the call made and answered by the other', { skip: SERVER_URL === null ? 'PostgreSQL only (DATABASE_URL)' : false }, async (t) => {
  const databaseUrl = await testDatabaseUrl(t)
  const streamSide = await build(t, { databaseUrl })
  const callSide = await build(t, { databaseUrl })
  const developer = await registerUser(streamSide, 'DEVELOPER')
  const { app: created } = await createApp(streamSide, developer)
  const session = await portsOf(streamSide).relay.connect(created.id, developer.businessId, (row) => {
    void portsOf(callSide).relay.answer(created.id, row.id, { status: 200, headers: {}, body: `answered ${row.name}` })
  })
  t.teardown(session.disconnect)
  t.match(await portsOf(callSide).relay.call(request(created.id, developer.businessId, 10_000)), { answered: true, answer: { body: 'answered checkout.shipping_rates' } })
})
