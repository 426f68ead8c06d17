import t from 'tap'
import { buildApp } from '../../../server/app.ts'
import { build, registerUser, createApp, testConfig, REDIS_URL, redisReachable } from '../../helper.ts'

const LIMIT = 5
async function testInstall (app: Awaited<ReturnType<typeof build>>) {
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { scopes: ['read_business', 'read_pages'] })
  const body = (await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).json()
  return { authorization: `Bearer ${body.accessToken}` }
}

t.test('App API rate limit (in-memory store)', async (t) => {
  const app = await build(t, { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } })
  const first = await testInstall(app)
  const second = await testInstall(app)

  for (let i = 1; i <= LIMIT; i++) {
    const response = await app.inject({ url: '/app-api/business', headers: first })
    t.equal(response.statusCode, 200, `call ${i}`)
    t.equal(response.headers['x-ratelimit-limit'], String(LIMIT))
    t.equal(response.headers['x-ratelimit-remaining'], String(LIMIT - i))
    const reset = Number(response.headers['x-ratelimit-reset'])
    const now = Date.now() / 1000
    t.ok(reset > now && reset <= now + 61, `X-RateLimit-Reset is a Unix timestamp within the minute (${reset})`)
  }
  const limited = await app.inject({ url: '/app-api/business', headers: first })
  t.equal(limited.statusCode, 429, `call ${LIMIT + 1} is refused`)
  t.match(limited.json(), { statusCode: 429, error: 'Too Many Requests', message: /5 requests per minute/, code: 'rate_limited' })
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After is sent')
  t.equal(limited.headers['x-ratelimit-remaining'], '0')
  t.ok(limited.headers['x-ratelimit-reset'])

  const other = await app.inject({ url: '/app-api/business', headers: second })
  t.equal(other.statusCode, 200, 'another installation has its own budget')
  t.equal(other.headers['x-ratelimit-remaining'], String(LIMIT - 1))
  t.equal((await app.inject({ url: '/app-api/pages', headers: first })).statusCode, 429, 'the budget covers every App API route')
})

t.test('a 401 carries X-RateLimit-* too, counted against the caller\'s address (DESIGN §21)', async (t) => {
  const app = await build(t, { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } })
  const valid = await testInstall(app)
  const attempts = [{}, { authorization: 'Bearer fbat_not-a-real-token-of-anyone' }, { authorization: 'Basic eDp5' }, { authorization: 'Bearer fbat_x' }]
  for (const [i, headers] of attempts.entries()) {
    const response = await app.inject({ url: '/app-api/business', headers })
    t.equal(response.statusCode, 401, `attempt ${i + 1}`)
    t.match(response.json(), { statusCode: 401, code: /^token_(missing|invalid|malformed)$/ })
    t.equal(response.headers['x-ratelimit-limit'], String(LIMIT), `attempt ${i + 1}: X-RateLimit-Limit`)
    t.equal(response.headers['x-ratelimit-remaining'], String(LIMIT - 1 - i), `attempt ${i + 1}: X-RateLimit-Remaining`)
    t.ok(Number(response.headers['x-ratelimit-reset']) > Date.now() / 1000, `attempt ${i + 1}: X-RateLimit-Reset is a Unix time`)
  }
  const webhooks = await app.inject({ url: '/webhooks', headers: {} })
  t.equal(webhooks.statusCode, 401)
  t.equal(webhooks.headers['x-ratelimit-remaining'], '0', 'webhook management shares the budget')
  const refused = await app.inject({ url: '/app-api/business', headers: {} })
  t.equal(refused.statusCode, 429, 'tokenless calls from one address are limited too')
  t.equal(refused.json().code, 'rate_limited')
  const installed = await app.inject({ url: '/app-api/business', headers: valid })
  t.equal(installed.statusCode, 200, 'an installation keeps its own budget')
  t.equal(installed.headers['x-ratelimit-remaining'], String(LIMIT - 1))
})

const redisUp = await redisReachable()
t.test('with REDIS_URL two app instances share one budget', { skip: redisUp ? false : `no Redis at ${REDIS_URL}` }, async (t) => {
  const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL }
  const one = await build(t, { env })
  // a second instance on the same database, as a second process behind a load balancer would be
  const two = await buildApp({ config: testConfig(env, one.config.databaseUrl), database: one.database })
  t.teardown(() => two.close())
  const auth = await testInstall(one)
  for (let i = 0; i < LIMIT; i++) {
    const response = await (i % 2 === 0 ? one : two).inject({ url: '/app-api/business', headers: auth })
    t.equal(response.statusCode, 200)
  }
  t.equal((await two.inject({ url: '/app-api/business', headers: auth })).statusCode, 429, 'instance two counts instance one’s calls')
  t.equal((await one.inject({ url: '/app-api/business', headers: auth })).statusCode, 429)
})
