import t from 'tap'
import { buildApp } from '../../../server/app.ts'
import { createRevocations, SESSION_REVOKED_CHANNEL } from '../../../plugins/auth/revocations.ts'
import { build, registerUser, testConfig, SERVER_URL, dropListenConnections, until } from '../../helper.ts'
import { TestClock } from '../../clock.ts'

const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())

t.test('session JWTs are short-lived and carry a jti', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const claims = decode(merchant.token)
  t.match(claims.jti, /^[0-9a-f-]{36}$/)
  t.equal(claims.exp - claims.iat, 8 * 3600, '8 hours')
  const other = decode((await app.inject({ method: 'POST', url: '/auth/login', payload: { email: merchant.email, password: 'correct-horse' } })).json().token)
  t.not(other.jti, claims.jti, 'each session its own id')
  const noJti = app.jwt.sign({ sub: merchant.userId, role: 'MERCHANT', businessId: merchant.businessId, email: merchant.email } as never)
  t.equal((await app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${noJti}` } })).statusCode, 401, 'a token without an id cannot be revoked, so it is refused')
})

t.test('POST /auth/logout', async (t) => {
  const app = await build(t)
  const merchant = await registerUser(app, 'MERCHANT')
  const second = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: merchant.email, password: 'correct-horse' } })).json().token
  t.equal((await app.inject({ url: '/merchant/business', headers: merchant.auth })).statusCode, 200)
  const out = await app.inject({ method: 'POST', url: '/auth/logout', headers: merchant.auth })
  t.equal(out.statusCode, 204)
  for (const url of ['/auth/me', '/merchant/business', '/merchant/installations']) {
    const refused = await app.inject({ url, headers: merchant.auth })
    t.equal(refused.statusCode, 401, `${url} refuses the signed-out session`)
    t.match(refused.json().message, 'Session expired or signed out')
  }
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: merchant.auth })).statusCode, 401, 'twice: already out')
  t.equal((await app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${second}` } })).statusCode, 200, 'only that session ends')
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout' })).statusCode, 401)
})

t.test('a revoked session is refused by another process at once (LISTEN/NOTIFY), and by a process started later', async (t) => {
  const one = await build(t)
  const two = await buildApp({ config: testConfig({ JWT_SECRET: one.config.jwtSecret }, one.config.databaseUrl), database: one.database })
  let twoClosed = false
  t.teardown(async () => { if (!twoClosed) await two.close() })
  const merchant = await registerUser(one, 'MERCHANT')
  t.equal((await two.inject({ url: '/auth/me', headers: merchant.auth })).statusCode, 200, 'process two accepts the session')
  t.equal((await one.inject({ method: 'POST', url: '/auth/logout', headers: merchant.auth })).statusCode, 204)
  const started = Date.now()
  const status = await until(async () => (await two.inject({ url: '/auth/me', headers: merchant.auth })).statusCode, (s) => s === 401)
  t.equal(status, 401, `process two refuses it after ${Date.now() - started} ms`)
  // two leaves before three starts: they share this test's connection pool, which holds each one's LISTEN connections
  await two.close()
  twoClosed = true
  const three = await buildApp({ config: testConfig({ JWT_SECRET: one.config.jwtSecret }, one.config.databaseUrl), database: one.database })
  t.teardown(() => three.close())
  t.equal((await three.inject({ url: '/auth/me', headers: merchant.auth })).statusCode, 401, 'a process started after the logout loads the list')
})

t.test('while the LISTEN connection is down sessions are checked in the database', { skip: SERVER_URL === null ? 'needs DATABASE_URL' : false }, async (t) => {
  const one = await build(t)
  const two = await buildApp({ config: testConfig({ JWT_SECRET: one.config.jwtSecret }, one.config.databaseUrl), database: one.database })
  t.teardown(() => two.close())
  const merchant = await registerUser(one, 'MERCHANT')
  t.ok(await dropListenConnections(one.database, one.config.databaseUrl as string, SESSION_REVOKED_CHANNEL) >= 2, 'both processes lost their LISTEN')
  await one.inject({ method: 'POST', url: '/auth/logout', headers: merchant.auth })
  t.equal((await two.inject({ url: '/auth/me', headers: merchant.auth })).statusCode, 401, 'the database says it is revoked')
})

t.test('createRevocations forgets entries once their token has expired', async (t) => {
  const clock = new TestClock({ startMs: 1000, frozen: true })
  const revocations = createRevocations(null as never, clock)
  revocations.received('a 2000')
  revocations.received('b 5000')
  clock.advance(2000)
  revocations.prune()
  t.equal(revocations.size, 1)
})
