import t from 'tap'
import { build, registerUser, type Session } from '../../helper.ts'
import type { App } from '../../../server/app.ts'
import { issue, verify, CLI_TOKEN_LIFETIME_MS } from '../../../plugins/auth/cli-tokens.ts'
import { TestClock } from '../../clock.ts'

/** A CLI token through the device flow, approved by `developer`. */
async function cliLogin (app: App, developer: Session, name = 'laptop') {
  const codes = (await app.inject({ method: 'POST', url: '/oauth/device_authorization', payload: { client_id: 'app-platform-cli', device_name: name } })).json()
  await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: codes.user_code, decision: 'approve' } })
  const token = await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: codes.device_code, client_id: 'app-platform-cli' } })
  if (token.statusCode !== 200) throw new Error(`device token failed: ${token.statusCode} ${token.body}`)
  return token.json() as { access_token: string, token_type: string, expires_in: number }
}

t.test('CLI tokens', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const other = await registerUser(app, 'DEVELOPER')

  t.test('last 30 days and reach /developer routes only', async (t) => {
    const token = await cliLogin(app, developer)
    t.match(token.access_token, /^fbcli_/)
    t.equal(token.token_type, 'bearer')
    t.equal(token.expires_in, 30 * 24 * 3600)
    const auth = { authorization: `Bearer ${token.access_token}` }
    t.equal((await app.inject({ method: 'GET', url: '/developer/apps', headers: auth })).statusCode, 200)
    const me = await app.inject({ method: 'GET', url: '/auth/me', headers: auth })
    t.equal(me.statusCode, 403)
    t.equal(me.json().code, 'cli_token_scope')
    t.equal((await app.inject({ method: 'GET', url: '/merchant/products', headers: auth })).statusCode, 403)
    const whoami = await app.inject({ method: 'GET', url: '/developer/cli-tokens/current', headers: auth })
    t.equal(whoami.statusCode, 200)
    t.equal(whoami.json().user.email, developer.email)
    t.equal(whoami.json().token.name, 'laptop')
  })

  t.test('are listed for their developer and revocable in the portal; another developer\'s is 404', async (t) => {
    const token = await cliLogin(app, developer, 'desk')
    const auth = { authorization: `Bearer ${token.access_token}` }
    const list = (await app.inject({ method: 'GET', url: '/developer/cli-tokens', headers: developer.auth })).json()
    const desk = list.data.find((row: { name: string }) => row.name === 'desk')
    t.ok(desk, 'the portal lists it')
    t.same((await app.inject({ method: 'GET', url: '/developer/cli-tokens', headers: other.auth })).json().data, [], 'not another developer\'s')
    t.equal((await app.inject({ method: 'DELETE', url: `/developer/cli-tokens/${desk.id as string}`, headers: other.auth })).statusCode, 404)
    t.equal((await app.inject({ method: 'GET', url: '/developer/apps', headers: auth })).statusCode, 200, 'untouched by the other developer')
    t.equal((await app.inject({ method: 'DELETE', url: `/developer/cli-tokens/${desk.id as string}`, headers: developer.auth })).statusCode, 204)
    const refused = await app.inject({ method: 'GET', url: '/developer/apps', headers: auth })
    t.equal(refused.statusCode, 401)
    t.equal(refused.json().code, 'cli_token_invalid')
  })

  t.test('logout revokes the token in use', async (t) => {
    const token = await cliLogin(app, developer)
    const auth = { authorization: `Bearer ${token.access_token}` }
    t.equal((await app.inject({ method: 'DELETE', url: '/developer/cli-tokens/current', headers: auth })).statusCode, 204)
    t.equal((await app.inject({ method: 'GET', url: '/developer/cli-tokens/current', headers: auth })).statusCode, 401)
    t.equal((await app.inject({ method: 'DELETE', url: '/developer/cli-tokens/current', headers: developer.auth })).statusCode, 404, 'a session JWT is no CLI token')
  })

  t.test('are stored hashed and refused after 30 days', async (t) => {
    const clock = new TestClock()
    const context = { executor: app.db, clock }
    const { token } = await issue(context, developer.userId, 'clock')
    const rows = await app.db.execute<{ token_hash: string }>('select token_hash from cli_tokens')
    t.notOk(JSON.stringify(rows).includes(token), 'the token itself is nowhere in the table')
    t.ok(await verify(context, token))
    clock.advance(CLI_TOKEN_LIFETIME_MS + 1)
    t.equal(await verify(context, token), null)
  })
})
