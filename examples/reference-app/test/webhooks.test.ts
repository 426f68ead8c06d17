import t from 'tap'
import { signedHeaders } from '@app-platform/sdk'
import { until } from '../../../test/helper.ts'
import { install, stage } from './fixture.ts'
import { portsOf } from '../../../server/app.ts'

t.test('POST /webhooks', async (t) => {
  const s = await stage(t, { DATA_ERASURE_DELAY_SECONDS: '0' })
  const installation = await install(s)
  const store = s.reference.reference.store

  t.test('a storefront order arrives as a signed order.created, once', async (t) => {
    const products = (await s.platform.storefront.inject({ url: `/store/${s.merchant.slug}/api/products` })).json().data
    const placed = await s.platform.storefront.inject({
      method: 'POST', url: `/store/${s.merchant.slug}/api/orders`,
      payload: { items: [{ productId: products[0].id, quantity: 1 }], customer: { name: 'Hungry' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
    })
    t.equal(placed.statusCode, 201)
    await portsOf(s.platform).webhooks.delivery.idle()
    const events = await until(async () => store.events(installation.businessId), (list) => list.some((e) => e.event === 'order.created'))
    const created = events.find((e) => e.event === 'order.created')
    t.match(created, { eventId: String, summary: new RegExp(`Order #${placed.json().order.orderNumber as string}`) })

    const deliveries = (await s.platform.inject({ url: `/developer/apps/${s.appId}/deliveries`, headers: s.developer.auth })).json().data
    t.ok(deliveries.some((d: { event: string, status: string }) => d.event === 'order.created' && d.status === 'SUCCEEDED'), 'the platform logged a 2xx')

    // a retry of the same delivery (same X-Service-Event-Id, signed anew) is acknowledged and not handled twice
    const body = JSON.stringify({ event: 'order.created', timestamp: new Date().toISOString(), webhookId: 'wh_x', businessId: installation.businessId, data: { orderId: 'o', orderNumber: '1', amount: 1 } })
    const retry = await fetch(`${s.appUrl}/webhooks`, { method: 'POST', headers: { ...signedHeaders(body, installation.webhookSecret), 'x-service-event-id': created?.eventId as string }, body })
    t.equal(retry.status, 200)
    t.same(await retry.json(), { received: true, duplicate: true })
    t.equal(store.events(installation.businessId).filter((e) => e.eventId === created?.eventId).length, 1)
  })

  t.test('refuses bad signatures, stale timestamps and unknown businesses with 401', async (t) => {
    const body = JSON.stringify({ event: 'webhook.test', timestamp: new Date().toISOString(), webhookId: 'wh_x', businessId: installation.businessId, data: { message: 'hi' } })
    const post = (headers: Record<string, string>, payload = body) =>
      fetch(`${s.appUrl}/webhooks`, { method: 'POST', headers: { ...headers, 'x-service-event-id': 'dlv_test' }, body: payload })
    t.equal((await post(signedHeaders(body, 'whsec_wrong'))).status, 401)
    t.equal((await post({ 'content-type': 'application/json', 'x-webhook-signature': 'sha256=00', 'x-webhook-timestamp': '1' })).status, 401)
    t.equal((await post(signedHeaders(body, installation.webhookSecret, Math.floor(Date.now() / 1000) - 600))).status, 401, 'stale')
    const stranger = body.replace(installation.businessId, 'biz_stranger')
    const unknown = await post(signedHeaders(stranger, installation.webhookSecret), stranger)
    t.equal(unknown.status, 401)
    t.match(await unknown.json(), { statusCode: 401, error: 'Unauthorized' })
    t.notOk(store.hasEvent('dlv_test'), 'nothing recorded')
    const good = await post(signedHeaders(body, installation.webhookSecret))
    t.same(await good.json(), { received: true, duplicate: false })
  })

  t.test('business.data_erasure after an uninstall erases everything kept for the business', async (t) => {
    t.ok(store.holdsBusiness(installation.businessId))
    const uninstalled = await s.platform.inject({ method: 'DELETE', url: `/merchant/installations/${installation.installationId}`, headers: s.merchant.auth })
    t.equal(uninstalled.statusCode, 200)
    const held = async () => { await portsOf(s.platform).webhooks.delivery.idle(); return store.holdsBusiness(installation.businessId) }
    const erased = await until(held, (still) => !still)
    t.equal(erased, false, 'installation, events and payments of the business are gone')
    const deliveries = (await s.platform.inject({ url: `/developer/apps/${s.appId}/deliveries?event=business.data_erasure`, headers: s.developer.auth })).json().data
    t.match(deliveries, [{ event: 'business.data_erasure', status: 'SUCCEEDED' }], 'acknowledged with a 2xx')
  })
})
