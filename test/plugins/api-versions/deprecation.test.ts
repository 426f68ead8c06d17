import t from 'tap'
import { build } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { NO_RATE_LIMIT, installApp } from '../app-api/fixtures.ts'

const DAY_MS = 86_400_000

/** A sunset announced for 2026-11 (API_VERSION_SUNSETS): Deprecation and Sunset until then, a 400 after. */
t.test('deprecation and sunset', async (t) => {
  const clock = new TestClock({ startMs: Date.parse('2026-12-10T12:00:00Z') })
  const app = await build(t, { env: { ...NO_RATE_LIMIT.env, API_VERSION_SUNSETS: '2026-11=2027-01-01' }, clock })
  const old = await installApp(app, ['read_orders'])
  const get = (version?: string) => app.inject({ method: 'GET', url: '/app-api/orders', headers: { ...old.auth, ...(version === undefined ? {} : { 'app-api-version': version }) } })

  t.test('before the sunset: 2026-11 answers carry Deprecation (RFC 9745) and Sunset (RFC 8594)', async (t) => {
    const pinned = await get()
    t.equal(pinned.statusCode, 200)
    t.equal(pinned.headers['app-api-version'], '2026-11')
    t.equal(pinned.headers.deprecation, `@${Date.parse('2026-12-01T00:00:00Z') / 1000}`, 'deprecated since its successor shipped, as @unix-seconds')
    t.equal(pinned.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT', 'an HTTP-date')
    t.type(pinned.json().data[0].amount, 'number', 'still its shapes')
    const newer = await get('2026-12')
    t.equal(newer.headers['app-api-version'], '2026-12')
    t.notOk(newer.headers.deprecation, 'a version without a sunset has no Deprecation')
    t.notOk(newer.headers.sunset)

    const changelog = (await app.inject({ method: 'GET', url: '/developer/api-versions' })).json()
    t.match(changelog.versions, [
      { version: '2026-11', status: 'deprecated', sunset: '2027-01-01', changes: [] },
      { version: '2026-12', sunset: null, changes: [{ id: 'money-objects', title: String, description: /amount.*currency/ }] }
    ])
    t.equal(changelog.header, 'App-Api-Version')
  })

  t.test('after the sunset: naming 2026-11 is a 400; the pinned app is answered in the oldest supported version', async (t) => {
    clock.advance(Date.parse('2027-01-01T00:00:00Z') - clock.nowMs() + DAY_MS / 2)
    const named = await get('2026-11')
    t.equal(named.statusCode, 400)
    t.equal(named.json().code, 'api_version_unsupported')
    t.same(named.json().supportedVersions, ['2026-12'])
    const pinned = await get()
    t.equal(pinned.statusCode, 200)
    t.equal(pinned.headers['app-api-version'], '2026-12', 'says which it used')
    t.match(pinned.json().data[0].amount, { amount: Number, currency: String })
    const changelog = (await app.inject({ method: 'GET', url: '/developer/api-versions' })).json()
    t.equal(changelog.versions[0].status, 'sunset')
    const upgrade = await app.inject({
      method: 'POST', url: `/developer/apps/${old.appId}/api-versions/upgrade`, headers: old.developer.auth, payload: { version: '2026-11', target: 'sandbox' }
    })
    t.equal(upgrade.statusCode, 400, 'nobody is moved onto a sunset version')
    t.equal(upgrade.json().code, 'api_version_unsupported')
    const register = (apiVersion: string) => app.inject({
      method: 'POST', url: '/webhooks', headers: old.auth, payload: { url: 'https://hooks.example.com/in', events: ['order.created'], apiVersion }
    })
    const sunset = await register('2026-11')
    t.equal(sunset.statusCode, 400, 'a registration may not name a sunset version')
    t.equal(sunset.json().code, 'api_version_unsupported')
    t.same(sunset.json().supportedVersions, ['2026-12'])
    const supported = await register('2026-12')
    t.equal(supported.statusCode, 201, 'a supported one is fine')
    const patched = await app.inject({ method: 'PATCH', url: `/webhooks/${supported.json().id as string}`, headers: old.auth, payload: { apiVersion: '2026-11' } })
    t.equal(patched.statusCode, 400, 'nor may a change name one')
    t.equal(patched.json().code, 'api_version_unsupported')
  })
})
