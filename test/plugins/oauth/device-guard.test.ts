import t from 'tap'
import { build, registerUser } from '../../helper.ts'

const PHISHING = 'Login requested by Platform Support; approve to keep your apps'
const ADDRESS = '198.51.100.7'

const startLogin = async (app: Awaited<ReturnType<typeof build>>, deviceName: string) => (await app.inject({
  method: 'POST', url: '/oauth/device_authorization', remoteAddress: ADDRESS,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: `client_id=app-platform-cli&device_name=${encodeURIComponent(deviceName)}`
})).json() as { user_code: string }

t.test('GET/POST /oauth/device: code guesses are limited per account and address (RFC 8628 §5.1)', async (t) => {
  const app = await build(t)
  const guesser = await registerUser(app, 'DEVELOPER')
  const guess = (i: number) => `BCDF-${'GHJKLMNPQRSTVWXZ'[i % 16]}${'GHJKLMNPQRSTVWXZ'[Math.floor(i / 16) % 16]}BC`
  const statuses: number[] = []
  for (let i = 0; i < 30; i++) {
    statuses.push((await app.inject({ url: `/oauth/device?user_code=${guess(i)}`, headers: guesser.auth })).statusCode)
  }
  t.same(statuses.slice(0, 20), Array(20).fill(404), 'a developer mistyping a code meets 404s')
  t.same(statuses.slice(20), Array(10).fill(429), 'past 20 a minute: 429')
  const approvals: number[] = []
  for (let i = 0; i < 21; i++) {
    approvals.push((await app.inject({ method: 'POST', url: '/oauth/device', headers: guesser.auth, payload: { user_code: guess(i), decision: 'approve' } })).statusCode)
  }
  t.same(approvals.slice(0, 20), Array(20).fill(404))
  const refused = await app.inject({ method: 'POST', url: '/oauth/device', headers: guesser.auth, payload: { user_code: guess(99), decision: 'approve' } })
  t.equal(refused.statusCode, 429, 'approving blind is limited too')
  t.match(refused.json(), { code: 'rate_limited', message: /Too many device codes tried/ })

  const other = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ url: `/oauth/device?user_code=${guess(0)}`, headers: other.auth })).statusCode, 404, 'another account is not held back')
})

t.test('GET /oauth/device shows who asked: the address and time the platform saw, apart from the name the device chose (§5.4)', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const before = Date.now()
  const { user_code: userCode } = await startLogin(app, PHISHING)
  const shown = await app.inject({ url: `/oauth/device?user_code=${encodeURIComponent(userCode)}`, headers: developer.auth })
  t.equal(shown.statusCode, 200)
  const login = shown.json()
  t.equal(login.clientName, PHISHING, "the device's words, as it sent them")
  t.equal(login.requestedFrom, ADDRESS, 'where the device asked from')
  t.ok(Date.parse(login.createdAt) >= before - 1000 && Date.parse(login.createdAt) <= Date.now() + 1000, 'when it asked')
})
