import t from 'tap'
import Fastify from 'fastify'
import clockPlugin from '../../../server/clock.ts'
import configPlugin from '../../../server/plugins/config.ts'
import dbPlugin from '../../../server/plugins/db.ts'
import errorsPlugin from '../../../server/plugins/errors.ts'
import authGuards from '../../../plugins/auth/guards.ts'
import { openDatabase } from '../../../server/db/client.ts'
import { mount } from '../../../server/capability.ts'
import { testConfig } from '../../helper.ts'

t.test('requireRole on a bare fastify instance', async (t) => {
  const database = await openDatabase({ databaseUrl: null, dataDir: null })
  await database.migrate()
  const app = Fastify({ logger: false })
  t.teardown(async () => { await app.close(); await database.close() })
  await app.register(configPlugin, { config: testConfig() })
  await app.register(dbPlugin, { database })
  await app.register(errorsPlugin)
  await app.register(clockPlugin)
  const guards = await mount(app, authGuards, {})
  app.get('/devs', { onRequest: guards.requireRole('DEVELOPER') }, async (request) => ({ sub: request.user.sub }))
  app.get('/staff', { onRequest: guards.requireRole('REVIEWER', 'MERCHANT') }, async () => ({ ok: true }))
  await app.ready()

  const dev = guards.signSession({ sub: 'usr_1', role: 'DEVELOPER', businessId: 'biz_1', email: 'd@example.com' })
  const merchant = guards.signSession({ sub: 'usr_2', role: 'MERCHANT', businessId: 'biz_2', email: 'm@example.com' })

  t.same((await app.inject({ url: '/devs', headers: { authorization: `Bearer ${dev}` } })).json(), { sub: 'usr_1' })
  const wrongRole = await app.inject({ url: '/devs', headers: { authorization: `Bearer ${merchant}` } })
  t.equal(wrongRole.statusCode, 403)
  t.same(wrongRole.json(), { statusCode: 403, error: 'Forbidden', message: 'This endpoint requires the DEVELOPER role', code: 'role_forbidden' })
  t.equal((await app.inject({ url: '/staff', headers: { authorization: `Bearer ${merchant}` } })).statusCode, 200)
  t.match((await app.inject({ url: '/staff', headers: { authorization: `Bearer ${dev}` } })).json().message, /REVIEWER or MERCHANT/)
  const none = await app.inject({ url: '/devs' })
  t.equal(none.statusCode, 401)
  t.match(none.json().message, /Missing bearer token/)
  t.equal((await app.inject({ url: '/devs', headers: { authorization: `Basic ${dev}` } })).statusCode, 401)
})
