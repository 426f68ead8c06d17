import t from 'tap'
import { createTokenCache } from '../../../plugins/installations/token-cache.ts'
import { buildApp } from '../../../server/app.ts'
import { build, registerUser, createApp, testConfig, SERVER_URL, dropListenConnections, until, portsOf } from '../../helper.ts'
import { INSTALLATION_CHANNEL } from '../../../plugins/installations/service.ts'
import { TestClock } from '../../clock.ts'

const entry = (id: string) => ({ id, appId: 'app_1', businessId: 'biz_1', scopes: [], pendingScopes: [], isTestInstall: false, apiVersion: '2026-11' as const })

t.test('createTokenCache', async (t) => {
  const clock = new TestClock()
  const cache = createTokenCache({ max: 2, ttlMs: 100, clock })
  cache.set('a', entry('inst_a'))
  cache.set('b', entry('inst_b'))
  t.ok(cache.get('a'), 'a is fresh and now the most recent')
  cache.set('c', entry('inst_c'))
  t.equal(cache.get('b'), undefined, 'bounded: the least recently used goes')
  t.ok(cache.get('a'))
  cache.evictInstallation('inst_a')
  t.equal(cache.get('a'), undefined, 'evicted by installation id')
  clock.advance(200)
  t.equal(cache.get('c'), undefined, 'expired after the TTL')
  t.equal(cache.size, 0)
})

t.test('a disabled token cache holds nothing until it is enabled again', async (t) => {
  const cache = createTokenCache({ clock: new TestClock() })
  cache.set('a', entry('inst_a'))
  cache.setEnabled(false)
  t.equal(cache.get('a'), undefined, 'disabling drops the entries')
  cache.set('b', entry('inst_b'))
  t.equal(cache.get('b'), undefined, 'and nothing is stored meanwhile')
  cache.setEnabled(true)
  cache.set('c', entry('inst_c'))
  t.ok(cache.get('c'), 'enabled again, it caches')
})

t.test('revocation reaches another instance at once (LISTEN/NOTIFY)', async (t) => {
  const one = await build(t)
  // instance two's clock stands still: its cache entries never expire by TTL here, so only the NOTIFY can evict
  const two = await buildApp({ config: testConfig({}, one.config.databaseUrl), database: one.database, clock: new TestClock({ frozen: true }) })
  t.teardown(() => two.close())
  const developer = await registerUser(one, 'DEVELOPER')
  const { app: created } = await createApp(one, developer, { scopes: ['read_business'] })
  const { accessToken } = (await one.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).json()
  const auth = { authorization: `Bearer ${accessToken}` }

  t.equal((await two.inject({ url: '/app-api/business', headers: auth })).statusCode, 200, 'instance two has the token cached')
  t.equal(portsOf(two).installations.tokenCache.size, 1)
  await one.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-uninstall`, headers: developer.auth })

  const started = performance.now()
  const status = await until(async () => (await two.inject({ url: '/app-api/business', headers: auth })).statusCode, (code) => code === 401)
  t.equal(status, 401, `instance two refuses the token after ${Math.round(performance.now() - started)} ms, its cache TTL not run out`)
})

t.test('while the LISTEN connection is down tokens are checked in the database', { skip: SERVER_URL === null ? 'needs DATABASE_URL' : false }, async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { scopes: ['read_business'] })
  const { accessToken } = (await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).json()
  const auth = { authorization: `Bearer ${accessToken}` }
  t.equal((await app.inject({ url: '/app-api/business', headers: auth })).statusCode, 200)
  t.equal(portsOf(app).installations.tokenCache.size, 1)
  await dropListenConnections(app.database, app.config.databaseUrl as string, INSTALLATION_CHANNEL)
  await until(async () => portsOf(app).installations.tokenCache.size, (size) => size === 0)
  t.equal((await app.inject({ url: '/app-api/business', headers: auth })).statusCode, 200, 'the token still works')
  t.equal(portsOf(app).installations.tokenCache.size, 0, 'but is not cached while revocations cannot arrive')
  const cached = await until(async () => {
    await app.inject({ url: '/app-api/business', headers: auth })
    return portsOf(app).installations.tokenCache.size
  }, (size) => size === 1)
  t.equal(cached, 1, 'cached again once listening again')
})
