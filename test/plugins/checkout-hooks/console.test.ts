import t from 'tap'
import { build, registerUser, REVIEWER_ENV, portsOf } from '../../helper.ts'
import { cart, customer, installHookApp, shop, startAppServer } from './fixtures.ts'

t.test('hook calls in the console: the refused answer, why, and the failure policy applied', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  const server = await startAppServer(t, {
    '/base/rates': () => ({ json: { price: 12 } }),
    '/base/validate': () => ({ status: 503, text: 'busy' })
  })
  const { appId } = await installHookApp(app, developer, merchant, server.url, [
    { hookPoint: 'checkout.shipping_rates', url: '/rates' },
    { hookPoint: 'order.validate', url: '/validate', failurePolicy: 'closed' }
  ], ['write_shipping', 'read_orders'])
  const base = `/developer/apps/${appId}`
  const order = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: 'CASH' } })
  t.equal(order.statusCode, 422, 'the closed validation refused the order')
  await portsOf(app).checkoutHooks.flush()

  const list = await app.inject({ url: `${base}/hook-calls?success=false`, headers: developer.auth })
  t.equal(list.statusCode, 200)
  t.equal(list.json().total, 2)
  const rates = await app.inject({ url: `${base}/hook-calls?hookPoint=checkout.shipping_rates`, headers: developer.auth })
  const [call] = rates.json().data
  t.match(call, { hookPoint: 'checkout.shipping_rates', success: false, statusCode: 200, failurePolicy: 'open', error: /answer does not match checkout\.shipping_rates/ })

  const detail = await app.inject({ url: `${base}/hook-calls/${call.id}`, headers: developer.auth })
  t.equal(detail.statusCode, 200)
  t.match(detail.json(), {
    answer: '{"price":12}',
    requestBody: /^\{"hookPoint":"checkout\.shipping_rates"/,
    policyApplied: 'The delivery fee so far was kept'
  })
  t.equal(detail.json().requestBody, server.calls.find((c) => c.path === '/base/rates')?.raw, 'the envelope as sent')
  t.equal(detail.json().storeName, (await portsOf(app).commerce.findBusiness(call.businessId))?.name, 'the store by its name, not its id')

  const [validate] = (await app.inject({ url: `${base}/hook-calls?hookPoint=order.validate`, headers: developer.auth })).json().data
  const refused = (await app.inject({ url: `${base}/hook-calls/${validate.id}`, headers: developer.auth })).json()
  t.match(refused, { error: 'answered HTTP 503', statusCode: 503, answer: 'busy', failurePolicy: 'closed', policyApplied: /Fail-closed/ })

  const analytics = (await app.inject({ url: `${base}/analytics?days=7`, headers: developer.auth })).json()
  t.match(analytics.hookCalls.find((h: { hookPoint: string }) => h.hookPoint === 'checkout.shipping_rates'), { failed: 1, succeeded: 0 })
  t.match(analytics.hookCalls.find((h: { hookPoint: string }) => h.hookPoint === 'order.validate'), { failed: 1 })
  t.equal(analytics.totalInstalls, 1, 'the merchant\'s install counts live')
  t.equal(analytics.installTrend.at(-1).installs, 1)

  t.equal((await app.inject({ url: `${base}/hook-calls?hookPoint=checkout.teleport`, headers: developer.auth })).statusCode, 400)
  t.equal((await app.inject({ url: `${base}/hook-calls/hkc_missing`, headers: developer.auth })).statusCode, 404)
  const other = await registerUser(app, 'DEVELOPER')
  t.equal((await app.inject({ url: `${base}/hook-calls/${call.id}`, headers: other.auth })).statusCode, 404, 'another developer')
})
