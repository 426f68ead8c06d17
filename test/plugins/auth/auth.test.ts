import t from 'tap'
import { createSigner } from 'fast-jwt'
import { eq, sql } from 'drizzle-orm'
import { products, orders, reviews, pages, users } from '../../../server/db/schema/index.ts'
import { build, listen, uniqueEmail, REVIEWER_ENV } from '../../helper.ts'

t.test('auth over real HTTP', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  t.test('POST /auth/register → POST /auth/login → GET /auth/me', async (t) => {
    const email = uniqueEmail('Merchant')
    const registered = await post('/auth/register', { email, password: 'correct-horse', name: 'Mia', role: 'MERCHANT', businessName: 'Mia Bakes' })
    t.equal(registered.status, 201)
    const session = await registered.json()
    t.match(session, { token: String, user: { email: email.toLowerCase(), name: 'Mia', role: 'MERCHANT', businessId: /^biz_/ }, businessId: /^biz_/ })
    t.notOk('passwordHash' in session.user, 'no hash leaks')

    const login = await post('/auth/login', { email: email.toUpperCase(), password: 'correct-horse' })
    t.equal(login.status, 200, 'email is case-insensitive')
    const { token } = await login.json()

    const me = await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    t.equal(me.status, 200)
    t.match(await me.json(), { user: { email: email.toLowerCase(), role: 'MERCHANT' }, business: { name: 'Mia Bakes', slug: 'mia-bakes', isSandbox: false } })
  })

  t.test('a developer gets a sandbox business with sample data', async (t) => {
    const registered = await post('/auth/register', { email: uniqueEmail('dev'), password: 'correct-horse', name: 'Dana', role: 'DEVELOPER' })
    t.equal(registered.status, 201)
    const { businessId, token } = await registered.json()
    const me = await (await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json()
    t.equal(me.business.isSandbox, true)
    for (const table of [products, orders, reviews, pages]) {
      const [{ n }] = await app.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.businessId, businessId))
      t.ok(n > 0, `sandbox has rows in ${table === products ? 'products' : table === orders ? 'orders' : table === reviews ? 'reviews' : 'pages'}`)
    }
  })

  t.test('POST /auth/register refuses bad input', async (t) => {
    const good = { email: uniqueEmail(), password: 'correct-horse', name: 'X', role: 'DEVELOPER' }
    const cases: Array<[string, Record<string, unknown>, number, RegExp]> = [
      ['a bad email', { ...good, email: 'not-an-email' }, 400, /email/],
      ['a weak password', { ...good, password: 'short' }, 400, /password/],
      ['a missing name', { ...good, name: undefined }, 400, /name/],
      ['an unknown role', { ...good, role: 'ADMIN' }, 400, /role/],
      ['self-registration as reviewer', { ...good, role: 'REVIEWER' }, 400, /role/],
      ['a merchant without businessName', { ...good, role: 'MERCHANT' }, 400, /businessName is required/],
      ['an unknown field', { ...good, isAdmin: true }, 400, /additional properties/],
      ['a 10 000-character name', { ...good, name: 'n'.repeat(10_000) }, 400, /name/]
    ]
    for (const [name, body, status, message] of cases) {
      const response = await post('/auth/register', body)
      t.equal(response.status, status, name)
      const error = await response.json()
      t.match(error, { statusCode: status, error: 'Bad Request', message }, name)
    }
    const [{ n }] = await app.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.email, good.email))
    t.equal(n, 0, 'nothing was written')
  })

  t.test('POST /auth/register with a taken email is 409', async (t) => {
    const email = uniqueEmail()
    t.equal((await post('/auth/register', { email, password: 'correct-horse', name: 'A', role: 'DEVELOPER' })).status, 201)
    const again = await post('/auth/register', { email: email.toUpperCase(), password: 'correct-horse', name: 'B', role: 'DEVELOPER' })
    t.equal(again.status, 409)
    t.match(await again.json(), { statusCode: 409, error: 'Conflict', message: /already exists/ })
  })

  t.test('POST /auth/login gives no hint which part was wrong', async (t) => {
    const email = uniqueEmail()
    await post('/auth/register', { email, password: 'correct-horse', name: 'A', role: 'DEVELOPER' })
    const wrongPassword = await post('/auth/login', { email, password: 'wrong-horse' })
    const unknownEmail = await post('/auth/login', { email: uniqueEmail('nobody'), password: 'correct-horse' })
    t.equal(wrongPassword.status, 401)
    t.equal(unknownEmail.status, 401)
    t.same(await wrongPassword.json(), await unknownEmail.json())
    t.equal((await post('/auth/login', { email })).status, 400, 'missing password is a 400')
  })

  t.test('GET /auth/me refuses missing, forged and expired tokens', async (t) => {
    t.equal((await fetch(`${base}/auth/me`)).status, 401)
    t.equal((await fetch(`${base}/auth/me`, { headers: { authorization: 'Bearer not.a.jwt' } })).status, 401)
    const forged = createSigner({ key: 'x'.repeat(32) })({ sub: 'usr_x', role: 'REVIEWER', businessId: null, email: 'x@example.com' })
    t.equal((await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${forged}` } })).status, 401)
    const expired = createSigner({ key: app.config.jwtSecret, expiresIn: 1 })({ sub: 'usr_x', role: 'DEVELOPER', businessId: null, email: 'x@example.com', iat: Math.floor(Date.now() / 1000) - 100 })
    const response = await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${expired}` } })
    t.equal(response.status, 401)
    t.match(await response.json(), { statusCode: 401, error: 'Unauthorized', message: /expired/ })
  })

  t.test('the reviewer from REVIEWER_EMAIL can log in', async (t) => {
    const response = await post('/auth/login', { email: REVIEWER_ENV.REVIEWER_EMAIL, password: REVIEWER_ENV.REVIEWER_PASSWORD })
    t.equal(response.status, 200)
    t.equal((await response.json()).user.role, 'REVIEWER')
  })
})
