import t from 'tap'
import { createAccountThrottle, memoryFailureStore, redisFailureStore } from '../../../plugins/auth/throttle.ts'
import { build, registerUser, redisReachable, REDIS_URL } from '../../helper.ts'
import { Redis } from 'ioredis'

const login = (app: Awaited<ReturnType<typeof build>>, email: string, password: string, remoteAddress = '198.51.100.7') =>
  app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } })

t.test('POST /auth/login: per account, blocked after 5 failures, then the right password gets through', async (t) => {
  const app = await build(t, { env: { AUTH_THROTTLE_MAX_BLOCK_SECONDS: '1' } })
  const merchant = await registerUser(app, 'MERCHANT')
  for (let i = 1; i <= 5; i++) t.equal((await login(app, merchant.email, 'wrong-password')).statusCode, 401, `failure ${i}`)
  const blocked = await login(app, merchant.email, 'correct-horse')
  t.equal(blocked.statusCode, 429, 'blocked, even with the right password')
  t.match(blocked.json(), { statusCode: 429, error: 'Too Many Requests', message: /try again in 1 s/ })
  t.equal(blocked.headers['retry-after'], '1')
  t.equal((await login(app, merchant.email.toUpperCase(), 'correct-horse')).statusCode, 429, 'the account, whatever the case of the email')
  const other = await registerUser(app, 'MERCHANT')
  t.equal((await login(app, other.email, 'correct-horse')).statusCode, 200, 'other accounts are not affected')

  await new Promise((resolve) => setTimeout(resolve, 1100)) // the block is about time: it ends after its (shortened) length
  t.equal((await login(app, merchant.email, 'correct-horse')).statusCode, 200, 'after the block the owner signs in')
  t.equal((await login(app, merchant.email, 'wrong-password')).statusCode, 401, 'and the count started over')
})

t.test('the block doubles with each failure and is capped', async (t) => {
  const throttle = createAccountThrottle(memoryFailureStore(), { freeFailures: 5, maxBlockMs: 900_000 })
  const now = 1_000_000
  const waits: number[] = []
  for (let i = 1; i <= 16; i++) {
    await throttle.failed('a@x.test', now)
    waits.push(await throttle.waitMs('a@x.test', now))
  }
  t.same(waits.slice(0, 4), [0, 0, 0, 0], 'four free failures')
  t.same(waits.slice(4, 8), [1000, 2000, 4000, 8000], 'then 1 s, 2 s, 4 s, 8 s')
  t.equal(Math.max(...waits), 900_000, 'never more than 15 minutes')
  await throttle.succeeded('a@x.test')
  t.equal(await throttle.waitMs('a@x.test', now), 0, 'a success clears it')
})

t.test('POST /auth/login and /auth/register: per client address', async (t) => {
  const app = await build(t, { env: { AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: '3' } })
  for (let i = 0; i < 3; i++) t.equal((await login(app, `nobody${i}@x.test`, 'whatever-1')).statusCode, 401)
  const limited = await login(app, 'nobody9@x.test', 'whatever-1')
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { statusCode: 429, message: /Too many sign-in attempts from your address/ })
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After')
  const register = async (i: number) => (await app.inject({
    method: 'POST', url: '/auth/register', remoteAddress: '198.51.100.20',
    payload: { email: `new${i}@x.test`, password: 'correct-horse', name: 'N', role: 'MERCHANT', businessName: `Shop ${i}` }
  })).statusCode
  const signUps = []
  for (let i = 0; i < 4; i++) signUps.push(await register(i))
  t.same(signUps, [201, 201, 201, 429], 'sign-up has the same per-address budget')
  t.equal((await login(app, 'nobody9@x.test', 'whatever-1', '198.51.100.8')).statusCode, 401, 'another address has its own budget')
})

t.test('POST /auth/login: a forged X-Forwarded-For does not escape the address limit (TRUST_PROXY defaults to false)', async (t) => {
  const app = await build(t, { env: { AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: '2' } })
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) {
    const response = await app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '198.51.100.9', headers: { 'x-forwarded-for': `203.0.113.${i}` }, payload: { email: `x${i}@x.test`, password: 'whatever-1' } })
    statuses.push(response.statusCode)
  }
  t.same(statuses, [401, 401, 429, 429])
})

const redisUp = await redisReachable()
t.test('with Redis the failures are shared by every process', { skip: redisUp ? false : `no Redis at ${REDIS_URL}` }, async (t) => {
  const redis = new Redis(REDIS_URL)
  t.teardown(() => { redis.disconnect() })
  const account = `shared-${Date.now()}-${Math.random()}@x.test`
  const one = createAccountThrottle(redisFailureStore(redis), { freeFailures: 2, maxBlockMs: 60_000 })
  const two = createAccountThrottle(redisFailureStore(redis), { freeFailures: 2, maxBlockMs: 60_000 })
  await one.failed(account)
  await two.failed(account)
  t.ok(await one.waitMs(account) > 0, 'two processes\' failures add up')
  await two.succeeded(account)
  t.equal(await one.waitMs(account), 0)
})
