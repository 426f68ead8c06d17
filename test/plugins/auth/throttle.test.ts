import t from 'tap'
import { ACCOUNT_WIDE_MAX_BLOCK_MS, createAccountThrottle, memoryFailureStore, redisFailureStore } from '../../../plugins/auth/throttle.ts'
import { buildApp } from '../../../server/app.ts'
import { testPglite } from '../../database.ts'
import { build, registerUser, redisReachable, REDIS_URL, testConfig } from '../../helper.ts'
import { Redis } from 'ioredis'
import { TestClock } from '../../clock.ts'

const login = (app: Awaited<ReturnType<typeof buildApp>>, email: string, password: string, remoteAddress = '198.51.100.7') =>
  app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } })

t.test('POST /auth/login: per account and address, blocked after 5 failures, then the right password gets through', async (t) => {
  // frozen: the block lasts until the test moves past it, however slow the machine
  const clock = new TestClock({ frozen: true })
  const app = await build(t, { env: { AUTH_THROTTLE_MAX_BLOCK_SECONDS: '1' }, clock })
  const merchant = await registerUser(app, 'MERCHANT')
  for (let i = 1; i <= 5; i++) t.equal((await login(app, merchant.email, 'wrong-password')).statusCode, 401, `failure ${i}`)
  const blocked = await login(app, merchant.email, 'correct-horse')
  t.equal(blocked.statusCode, 429, 'blocked from that address, even with the right password')
  t.match(blocked.json(), { statusCode: 429, error: 'Too Many Requests', message: /try again in 1 s/ })
  t.equal(blocked.headers['retry-after'], '1')
  t.equal((await login(app, merchant.email.toUpperCase(), 'correct-horse')).statusCode, 429, 'the account, whatever the case of the email')
  const other = await registerUser(app, 'MERCHANT')
  t.equal((await login(app, other.email, 'correct-horse')).statusCode, 200, 'other accounts are not affected')

  clock.advance(1000) // the block is about time: it ends after its (shortened) length
  t.equal((await login(app, merchant.email, 'correct-horse')).statusCode, 200, 'after the block the owner signs in')
  t.equal((await login(app, merchant.email, 'wrong-password')).statusCode, 401, 'and the count started over')
})

t.test('the attack: a stranger\'s failures do not lock the owner out', async (t) => {
  // frozen: the stranger's 1 s, 2 s, 4 s … blocks cannot run out between the attempts on a slow machine
  const app = await build(t, { clock: new TestClock({ frozen: true }) })
  const owner = await registerUser(app, 'MERCHANT')
  for (let i = 1; i <= 12; i++) await login(app, owner.email, `guess-${i}`, '203.0.113.66')
  t.equal((await login(app, owner.email, 'correct-horse', '203.0.113.66')).statusCode, 429, 'the stranger\'s address is blocked')
  const signIn = await login(app, owner.email, 'correct-horse', '198.51.100.1')
  t.equal(signIn.statusCode, 200, 'the owner, from their own address, signs in at once')
})

t.test('failures from many addresses back the account off, at most 60 s', async (t) => {
  const app = await build(t)
  const owner = await registerUser(app, 'MERCHANT')
  for (let i = 1; i <= 40; i++) await login(app, owner.email, `stuffed-${i}`, `203.0.113.${i}`)
  const blocked = await login(app, owner.email, 'correct-horse', '198.51.100.1')
  t.equal(blocked.statusCode, 429, 'credential stuffing from 40 addresses: the account waits')
  t.ok(Number(blocked.headers['retry-after']) <= ACCOUNT_WIDE_MAX_BLOCK_MS / 1000, `for at most 60 s (${String(blocked.headers['retry-after'])} s)`)
})

t.test('the blocks double with each failure and are capped', async (t) => {
  const clock = new TestClock({ frozen: true })
  const throttle = createAccountThrottle(memoryFailureStore(clock), { freeFailures: 5, maxBlockMs: 900_000, clock })
  const now = 1_000_000
  const waits: number[] = []
  for (let i = 1; i <= 16; i++) {
    await throttle.failed('a@x.test', '203.0.113.1', now)
    waits.push(await throttle.waitMs('a@x.test', '203.0.113.1', now))
  }
  t.same(waits.slice(0, 4), [0, 0, 0, 0], 'four free failures')
  t.same(waits.slice(4, 8), [1000, 2000, 4000, 8000], 'then 1 s, 2 s, 4 s, 8 s')
  t.equal(Math.max(...waits), 900_000, 'never more than 15 minutes')
  t.equal(await throttle.waitMs('a@x.test', '198.51.100.1', now), 0, 'one address adds only its free failures to the account: others wait nothing')
  await throttle.succeeded('a@x.test', '203.0.113.1')
  t.equal(await throttle.waitMs('a@x.test', '203.0.113.1', now), 0, 'a success clears it')

  const wide: number[] = []
  for (let i = 1; i <= 30; i++) {
    await throttle.failed('b@x.test', `203.0.113.${i}`, now)
    wide.push(await throttle.waitMs('b@x.test', '198.51.100.1', now))
  }
  t.same(wide.slice(0, 9), Array(9).fill(0), 'ten failures from many addresses are free')
  t.same(wide.slice(9, 12), [1000, 2000, 4000], 'then the account backs off')
  t.equal(Math.max(...wide), ACCOUNT_WIDE_MAX_BLOCK_MS, 'capped at 60 s')
})

t.test('without Redis, processes sharing the database share the failures', async (t) => {
  const database = await testPglite(t)
  const one = await buildApp({ config: testConfig(), database })
  const two = await buildApp({ config: testConfig(), database })
  t.teardown(async () => { await one.close(); await two.close() })
  const owner = await registerUser(one, 'MERCHANT')
  for (let i = 1; i <= 5; i++) await login(i % 2 === 0 ? one : two, owner.email, `guess-${i}`)
  t.equal((await login(one, owner.email, 'correct-horse')).statusCode, 429, 'five failures across two processes block the address')
  t.equal((await login(two, owner.email, 'correct-horse')).statusCode, 429, 'in both')
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
  const clock = new TestClock({ frozen: true })
  const one = createAccountThrottle(redisFailureStore(redis), { freeFailures: 2, maxBlockMs: 60_000, clock })
  const two = createAccountThrottle(redisFailureStore(redis), { freeFailures: 2, maxBlockMs: 60_000, clock })
  await one.failed(account, '203.0.113.1')
  await two.failed(account, '203.0.113.1')
  t.ok(await one.waitMs(account, '203.0.113.1') > 0, 'two processes\' failures add up')
  await two.succeeded(account, '203.0.113.1')
  t.equal(await one.waitMs(account, '203.0.113.1'), 0)
})
