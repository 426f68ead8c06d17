import t from 'tap'
import { build, registerUser, REVIEWER_ENV, until } from '../../helper.ts'
import { TestClock } from '../../clock.ts'
import { startAppServer, installHookApp, shop, cart, customer, type Received } from '../checkout-hooks/fixtures.ts'

const MONEY = { amount: Number, currency: /^[A-Z]{3}$/ }

/**
 * Two apps on one store, both installed on 2026-11; one developer upgrades theirs to 2026-12. The
 * old app's hook calls and webhook deliveries stay as they were (plain numbers, App-Api-Version:
 * 2026-11); the upgraded one's carry { amount, currency } and say 2026-12, and its money answers are read.
 */
t.test('hook calls and webhook deliveries shaped per version', async (t) => {
  const clock = new TestClock({ startMs: Date.parse('2026-12-10T12:00:00Z') })
  const app = await build(t, { env: { ...REVIEWER_ENV, RATE_LIMIT_PER_MINUTE: '1000000' }, clock })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)

  const oldServer = await startAppServer(t, {
    '/base': () => ({ json: {} }),
    '/base/rates': ({ body }) => ({ json: { fee: body.data.builtInFee + 100 } }),
    '/base/discounts': () => ({ json: { discount: 200 } })
  })
  const newServer = await startAppServer(t, {
    '/base': () => ({ json: {} }),
    // 2026-12: the fee it was handed is an object, and it answers with one
    '/base/rates': ({ body }) => ({ json: { fee: { amount: body.data.builtInFee.amount * 2, currency: body.data.builtInFee.currency } } }),
    '/base/discounts': ({ body }) => ({ json: { discount: { amount: 300, currency: body.data.subtotal.currency } } })
  })
  const scopes = ['write_shipping', 'write_discounts', 'read_orders', 'read_products']
  const hooks = (priority: number) => [
    { hookPoint: 'checkout.shipping_rates', url: '/rates', priority },
    { hookPoint: 'order.calculate_discounts', url: '/discounts', priority }
  ]
  const old = await installHookApp(app, developer, merchant, oldServer.url, hooks(10), scopes)
  const upgraded = await installHookApp(app, developer, merchant, newServer.url, hooks(20), scopes)
  // the app's own webhook registration: order.created to its webhookUrl (installHookApp's apps carry no events)
  for (const installed of [old.installed, upgraded.installed]) {
    const registered = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: `${installed === old.installed ? oldServer.url : newServer.url}/base`, events: ['order.created'] } })
    t.equal(registered.statusCode, 201)
    t.equal(registered.json().apiVersion, null, 'a registration without a version follows its installation')
  }

  t.test('the upgrade: the sandbox first (none here), then all installs; another developer\'s app is a 404', async (t) => {
    const upgrade = (target: string, version = '2026-12', as = developer) =>
      app.inject({ method: 'POST', url: `/developer/apps/${upgraded.appId}/api-versions/upgrade`, headers: as.auth, payload: { version, target } })
    t.match((await upgrade('sandbox')).json(), { version: '2026-12', target: 'sandbox', moved: 0 })
    t.match((await upgrade('all')).json(), { version: '2026-12', target: 'all', moved: 1 })
    const bad = await upgrade('all', '2031-01')
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'api_version_unsupported')
    t.same(bad.json().supportedVersions, ['2026-11', '2026-12'])
    t.equal((await upgrade('everything')).statusCode, 400)
    const stranger = await registerUser(app, 'DEVELOPER')
    t.equal((await upgrade('all', '2026-12', stranger)).statusCode, 404)
    t.equal((await upgrade('all', '2026-12', merchant)).statusCode, 403)
    const me = await app.inject({ method: 'GET', url: '/app-api/business', headers: upgraded.installed.auth })
    t.equal(me.headers['app-api-version'], '2026-12', 'the token answers in the new pin at once')
  })

  t.test('an order: the old app sees numbers, the upgraded one money objects; both say which version', async (t) => {
    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
    t.equal(placed.statusCode, 201)
    const order = placed.json().order
    t.equal(order.deliveryFee, (300 + 100) * 2, 'the upgraded app\'s { amount } fee was read')
    t.equal(order.discount, 200 + 300, 'and its { amount } discount')

    const call = (calls: Received[], path: string) => calls.find((c) => c.path === path) as Received
    const oldRates = call(oldServer.calls, '/base/rates')
    t.equal(oldRates.headers['app-api-version'], '2026-11')
    t.match(oldRates.body.data, { subtotal: 2700, builtInFee: 300 }, '2026-11: plain numbers, as before')
    const newRates = call(newServer.calls, '/base/rates')
    t.equal(newRates.headers['app-api-version'], '2026-12')
    t.same(newRates.body.data.subtotal, { amount: 2700, currency: order.currency })
    t.same(newRates.body.data.builtInFee, { amount: 400, currency: order.currency }, 'the fee so far, as an object')
    t.match(call(newServer.calls, '/base/discounts').body.data, { subtotal: MONEY, promoDiscount: MONEY, deliveryFee: { amount: 800 } })
    t.type(call(oldServer.calls, '/base/discounts').body.data.deliveryFee, 'number')

    await until(async () => [oldServer.calls, newServer.calls], (both) => both.every((calls) => calls.some((c) => c.path === '/base')))
    const oldDelivery = call(oldServer.calls, '/base')
    t.equal(oldDelivery.headers['app-api-version'], '2026-11')
    t.match(oldDelivery.body, { event: 'order.created', data: { orderId: order.id, amount: order.amount, deliveryFee: order.deliveryFee } })
    const newDelivery = call(newServer.calls, '/base')
    t.equal(newDelivery.headers['app-api-version'], '2026-12')
    t.same(newDelivery.body.data.amount, { amount: order.amount, currency: order.currency })
    t.same(newDelivery.body.data.deliveryFee, { amount: order.deliveryFee, currency: order.currency })
    t.equal(newDelivery.body.data.orderNumber, order.orderNumber, 'the rest as it was')

    // the console shows each delivery's body as its attempts sent it, in the version they were shaped for
    for (const [received, appId] of [[oldDelivery, old.appId], [newDelivery, upgraded.appId]] as const) {
      const url = `/developer/apps/${appId}/deliveries/${String(received.headers['x-service-event-id'])}`
      const detail = await until(async () => await app.inject({ url, headers: developer.auth }), (response) => response.statusCode === 200)
      t.equal(detail.json().requestBody, received.raw, `the console's body is the one sent on ${String(received.headers['app-api-version'])}`)
    }
  })

  t.test('a registration may name its own version', async (t) => {
    const receiver = await startAppServer(t, { '/own': () => ({ json: {} }) })
    const registered = await app.inject({
      method: 'POST', url: '/webhooks', headers: old.installed.auth, payload: { url: `${receiver.url}/own`, events: ['order.created'], apiVersion: '2026-12' }
    })
    t.equal(registered.statusCode, 201)
    t.equal(registered.json().apiVersion, '2026-12')
    const bad = await app.inject({ method: 'POST', url: '/webhooks', headers: old.installed.auth, payload: { url: `${receiver.url}/own`, events: ['order.created'], apiVersion: '1999-01' } })
    t.equal(bad.statusCode, 400)
    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
    t.equal(placed.statusCode, 201)
    await until(async () => receiver.calls.length, (n) => n > 0)
    t.equal(receiver.calls[0].headers['app-api-version'], '2026-12', 'the registration\'s version, not its installation\'s 2026-11')
    t.match(receiver.calls[0].body.data.amount, MONEY)
    const back = await app.inject({ method: 'PATCH', url: `/webhooks/${registered.json().id as string}`, headers: old.installed.auth, payload: { apiVersion: null } })
    t.equal(back.json().apiVersion, null, 'null: back to the installation\'s')
  })

  t.test('the console: pinned versions and what requests, webhooks and hooks used in the last 30 days', async (t) => {
    await app.inject({ method: 'GET', url: '/app-api/orders', headers: { ...old.installed.auth, 'app-api-version': '2026-12' } })
    await app.inject({ method: 'GET', url: '/app-api/orders', headers: old.installed.auth })
    const read = async (appId: string) => (await app.inject({ method: 'GET', url: `/developer/apps/${appId}/api-versions`, headers: developer.auth })).json()
    const usesOf = (view: { usage: Array<{ kind: string, version: string, count: number }> }) =>
      Object.fromEntries(view.usage.map((u) => [`${u.kind} ${u.version}`, u.count]))
    // delivery attempts are counted once recorded, a moment after the app got them
    await until(async () => [usesOf(await read(upgraded.appId)), usesOf(await read(old.appId))],
      ([mine, theirs]) => mine['webhooks 2026-12'] >= 2 && theirs['webhooks 2026-12'] >= 1)
    const upgradedView = await read(upgraded.appId)
    t.same(upgradedView.pinned, [{ version: '2026-12', sandbox: false, installs: 1 }])
    t.same(usesOf(upgradedView), {
      'hooks 2026-12': 4, // two orders, two hook points
      'requests 2026-11': 1, // its registration, before the upgrade
      'requests 2026-12': 1,
      'webhooks 2026-12': 2
    })
    t.equal(upgradedView.days, 30)
    const oldView = await read(old.appId)
    t.same(oldView.pinned, [{ version: '2026-11', sandbox: false, installs: 1 }])
    t.match(usesOf(oldView), { 'hooks 2026-11': 4, 'requests 2026-11': Number, 'requests 2026-12': 1, 'webhooks 2026-11': 2, 'webhooks 2026-12': 1 })
    t.ok(oldView.usage.every((u: { status: string, sunset: unknown }) => ['current', 'supported'].includes(u.status) && u.sunset === null), 'each with its status and sunset')
    const stranger = await registerUser(app, 'DEVELOPER')
    t.equal((await app.inject({ method: 'GET', url: `/developer/apps/${old.appId}/api-versions`, headers: stranger.auth })).statusCode, 404)
    t.equal((await app.inject({ method: 'GET', url: `/developer/apps/${old.appId}/api-versions` })).statusCode, 401)
  })
})
