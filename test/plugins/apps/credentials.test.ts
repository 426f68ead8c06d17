import t from 'tap'
import { build, registerUser, createApp, portsOf } from '../../helper.ts'
import { hashSecret, secretMatches } from '../../../plugins/apps/credentials.ts'

t.test('POST /developer/apps/:appId/client-secret', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret: original } = await createApp(app, developer)

  t.ok(await portsOf(app).apps.verifyClientCredentials(created.clientId, original), 'the secret from creation verifies')
  t.equal(await portsOf(app).apps.verifyClientCredentials(created.clientId, `${original}x`), null, 'a wrong secret does not')
  t.equal(await portsOf(app).apps.verifyClientCredentials('0'.repeat(32), original), null, 'an unknown client id does not')

  const response = await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/client-secret`, headers: developer.auth })
  t.equal(response.statusCode, 200)
  const { clientSecret: regenerated } = response.json()
  t.match(regenerated, /^fbcs_[A-Za-z0-9_-]{43}$/)
  t.not(regenerated, original)
  t.equal(await portsOf(app).apps.verifyClientCredentials(created.clientId, original), null, 'the old secret stops working at once')
  t.ok(await portsOf(app).apps.verifyClientCredentials(created.clientId, regenerated), 'the new one works')

  const app2 = await app.inject({ method: 'GET', url: `/developer/apps/${created.id}`, headers: developer.auth })
  t.equal(app2.json().clientId, created.clientId, 'the client id is fixed')

  const other = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/client-secret`, headers: other.auth })).statusCode, 404)
  t.ok(await portsOf(app).apps.verifyClientCredentials(created.clientId, regenerated), "another developer's attempt changed nothing")
})

t.test('secretMatches compares hashes of any length without throwing', async (t) => {
  t.ok(secretMatches('fbcs_abc', hashSecret('fbcs_abc')))
  t.notOk(secretMatches('fbcs_abd', hashSecret('fbcs_abc')))
  t.notOk(secretMatches('fbcs_abc', 'short'))
})
