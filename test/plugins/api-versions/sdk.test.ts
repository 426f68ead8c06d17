import t from 'tap'
import { createAppApiClient, type MoneyAmount, type Order, type MoneyOrder } from '../../../sdk/src/index.ts'
import { build, listen } from '../../helper.ts'
import { NO_RATE_LIMIT, installApp } from '../app-api/fixtures.ts'

/** The SDK's `apiVersion`: sent as App-Api-Version, and the answers typed for that version (tsc checks this file). */
t.test('the SDK client speaks the version it is given, typed for it', async (t) => {
  const app = await build(t, NO_RATE_LIMIT)
  const baseUrl = await listen(app)
  const installed = await installApp(app, ['read_orders', 'read_products'])

  const pinned = createAppApiClient({ baseUrl, accessToken: installed.token })
  const { data: [order] } = await pinned.orders.list()
  const plain: number = order.amount
  t.type(plain, 'number', 'unset: the installation\'s pin (2026-11 here), plain integers')
  t.equal(pinned.apiVersion, '2026-11', 'the version the answer says it used')

  const newer = createAppApiClient({ baseUrl, accessToken: installed.token, apiVersion: '2026-12' })
  const same = await newer.orders.get(order.id)
  const money: MoneyAmount = same.amount
  t.same(money, { amount: order.amount, currency: order.currency }, '2026-12: { amount, currency }')
  const typed: MoneyOrder = same
  t.same(typed.items[0].unitPrice, { amount: order.items[0].unitPrice, currency: order.currency })
  // @ts-expect-error a 2026-12 order is not the 2026-11 shape
  const wrong: Order = same
  t.ok(wrong)
  const product = (await newer.products.list()).data[0]
  t.match(product.price, { amount: Number, currency: String })
  t.equal(newer.apiVersion, '2026-12')

  const unknown = createAppApiClient({ baseUrl, accessToken: installed.token, apiVersion: '2099-01' as '2026-12' })
  await t.rejects(unknown.orders.list(), { statusCode: 400, code: 'api_version_unsupported' })
})
