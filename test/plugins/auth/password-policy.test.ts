import t from 'tap'
import { MIN_PASSWORD_LENGTH, passwordProblem } from '../../../plugins/auth/password-policy.ts'
import { build, uniqueEmail } from '../../helper.ts'

t.test('POST /auth/register refuses short and common passwords', async (t) => {
  const app = await build(t)
  const register = async (password: string) => await app.inject({
    method: 'POST', url: '/auth/register', payload: { email: uniqueEmail(), password, name: 'Pat', role: 'DEVELOPER' }
  })
  // the reported ones, then common ones long enough to pass a length check alone
  for (const password of ['12345678', 'password', '1234567890', 'password123', 'qwertyuiop', 'iloveyou12', 'aaaaaaaaaaaa', 'letmein123']) {
    const response = await register(password)
    t.equal(response.statusCode, 400, password)
    t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: /password/ }, `${password}: names the field`)
  }
  t.match((await register('1234567890')).json().message, /too common or easy to guess/)
  t.match((await register('short-1')).json().message, /password/)
  t.equal((await register('correct-horse')).statusCode, 201, 'two unrelated words pass')
})

t.test('POST /auth/register refuses a season and a year, and passwords made of the platform\'s own words', async (t) => {
  const app = await build(t)
  const register = async (password: string) => await app.inject({
    method: 'POST', url: '/auth/register', payload: { email: uniqueEmail(), password, name: 'Pat', role: 'MERCHANT', businessName: 'Pat\'s' }
  })
  // the red team's two (zxcvbn scores both 2, "somewhat guessable"), then their neighbours
  for (const password of ['Summer2024!', 'demo-password', 'Winter2025!', 'autumn-2023?', 'December2026', 'admin-password', 'Test-Password-1', 'merchant-pass!', 'MyShopPassword']) {
    const response = await register(password)
    t.equal(response.statusCode, 400, password)
    t.match(response.json(), { statusCode: 400, message: /password is too common or easy to guess/ }, password)
  }
  for (const password of ['summer-lantern-2024', 'quiet-demo-orchard', '839201746285', 'tr0ub4dor&3']) {
    t.equal((await register(password)).statusCode, 201, `${password}: an unrelated word, or no word at all, passes`)
  }
})

t.test('passwordProblem', async (t) => {
  t.match(passwordProblem('a'.repeat(MIN_PASSWORD_LENGTH - 1)), /at least 10 characters/)
  t.match(passwordProblem('password12'), /too common/)
  t.equal(passwordProblem('tr0ub4dor&3'), null)
  const started = performance.now()
  t.equal(passwordProblem(`quiet-lantern-${'z'.repeat(190)}`), null, 'a long password is scored on its start')
  t.ok(performance.now() - started < 500, 'quickly')
})
