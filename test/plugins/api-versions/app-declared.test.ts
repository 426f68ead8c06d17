import t from 'tap'
import { build, createApp, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { NO_RATE_LIMIT, call, testUninstall, type Installed } from '../app-api/fixtures.ts'
import { cart, customer, installHookApp, shop, startAppServer } from '../checkout-hooks/fixtures.ts'

const MONEY = { amount: Number, currency: /^[A-Z]{3}$/ }

/**
 * The app declares its API version (DESIGN §22): new installations pin to it, and an app that declares
 * none is on 2026-11, the spec's shapes, on a deployment whose newest version (API_VERSION_CURRENT,
 * here its production default 2026-12) is newer: an app written from the spec alone reads the spec's fields.
 */
t.test('the app declares its API version', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, ...NO_RATE_LIMIT.env, API_VERSION_CURRENT: '2026-12' } })
  const developer = await registerUser(app, 'DEVELOPER')
  const testInstall = async (appId: string): Promise<Installed> => {
    const response = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/test-install`, headers: developer.auth })
    t.equal(response.statusCode, 201, response.body)
    const body = response.json()
    return { developer, appId, token: body.accessToken, businessId: body.businessId, installationId: body.installationId, auth: { authorization: `Bearer ${body.accessToken}` } }
  }
  const patch = (appId: string, payload: Record<string, unknown>) => app.inject({ method: 'PATCH', url: `/developer/apps/${appId}`, headers: developer.auth, payload })

  t.test('a spec-only app (no apiVersion) reads price as a number; declaring 2026-12 pins its new installations to it', async (t) => {
    const { app: created } = await createApp(app, developer, { scopes: ['read_products', 'read_orders'] })
    t.equal(created.apiVersion, null, 'unset by default')
    const specOnly = await testInstall(created.id)
    const products = await call(app, specOnly, 'GET', '/app-api/products')
    t.equal(products.headers['app-api-version'], '2026-11', 'pinned to the spec\'s version, not API_VERSION_CURRENT')
    t.type(products.json().data[0].price, 'number', 'price is a number, as the spec says')
    t.type((await call(app, specOnly, 'GET', '/app-api/orders')).json().data[0].amount, 'number')

    const declared = await patch(created.id, { apiVersion: '2026-12' })
    t.equal(declared.statusCode, 200, declared.body)
    t.equal(declared.json().apiVersion, '2026-12')
    t.equal((await app.inject({ url: `/developer/apps/${created.id}`, headers: developer.auth })).json().apiVersion, '2026-12', 'GET shows it')
    t.equal((await call(app, specOnly, 'GET', '/app-api/products')).headers['app-api-version'], '2026-11', 'an existing installation keeps its pin (the console\'s upgrade moves it)')

    await testUninstall(app, specOnly)
    const fresh = await testInstall(created.id)
    const newer = await call(app, fresh, 'GET', '/app-api/products')
    t.equal(newer.headers['app-api-version'], '2026-12')
    t.match(newer.json().data[0].price, MONEY, 'a new installation pins to the declared version')

    const unset = await patch(created.id, { apiVersion: null })
    t.equal(unset.json().apiVersion, null, 'null goes back to the spec\'s version')
    for (const bad of ['2031-01', 'latest', 12]) {
      const refused = await patch(created.id, { apiVersion: bad })
      t.equal(refused.statusCode, 400, `${JSON.stringify(bad)} → 400`)
    }
  })

  t.test("app-platform.json's names: apiVersion and signatureScheme through PATCH /developer/apps/:appId", async (t) => {
    const { app: created } = await createApp(app, developer)
    const pushed = await patch(created.id, { apiVersion: '2026-12', signatureScheme: 'standard-webhooks' })
    t.equal(pushed.statusCode, 200, pushed.body)
    t.match(pushed.json(), { apiVersion: '2026-12', webhookSignatureScheme: 'standard-webhooks' }, 'signatureScheme is webhookSignatureScheme')
    t.notOk('signatureScheme' in pushed.json(), 'shown under one name')
    t.equal((await patch(created.id, { signatureScheme: 'spec', webhookSignatureScheme: 'spec' })).statusCode, 400, 'one name or the other')
    const made = await createApp(app, developer, { signatureScheme: 'standard-webhooks' })
    t.equal(made.app.webhookSignatureScheme, 'standard-webhooks', 'at creation too')
  })

  t.test('the app body takes apiVersion at creation too', async (t) => {
    const { app: created } = await createApp(app, developer, { apiVersion: '2026-12' })
    t.equal(created.apiVersion, '2026-12')
    const installed = await testInstall(created.id)
    t.equal((await call(app, installed, 'GET', '/app-api/orders')).headers['app-api-version'], '2026-12')
  })

  t.test("a spec-only app's hooks: subtotal a number, create_payment's amount a string", async (t) => {
    const { merchant, slug, pizza, soda } = await shop(app)
    const server = await startAppServer(t, {
      '/base': () => ({ json: {} }),
      '/base/rates': () => ({ json: { fee: 500 } }),
      '/base/methods': () => ({ json: { methods: [{ id: 'qr', name: 'QR pay' }] } }),
      '/base/pay': ({ body }) => ({ json: { invoiceId: `inv-${body.data.orderId as string}` } })
    })
    const hooks = [
      { hookPoint: 'checkout.shipping_rates', url: '/rates' },
      { hookPoint: 'checkout.payment_methods', url: '/methods' },
      { hookPoint: 'checkout.create_payment', url: '/pay' }
    ]
    const { installed } = await installHookApp(app, developer, merchant, server.url, hooks, ['write_shipping', 'write_payments'])
    const placed = await app.storefront.inject({
      method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: `${installed.installationId}:qr` }
    })
    t.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().order
    const rates = server.calls.find((c) => c.path === '/base/rates')
    t.equal(rates?.headers['app-api-version'], '2026-11')
    t.match(rates?.body.data, { subtotal: 2700, builtInFee: Number }, 'subtotal is a number')
    const pay = server.calls.find((c) => c.path === '/base/pay')
    t.equal(pay?.headers['app-api-version'], '2026-11')
    t.match(pay?.body.data, { orderId: order.id, amount: String(order.amount), currency: order.currency }, 'amount is a string of minor units')
  })
})
