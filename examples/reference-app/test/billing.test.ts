import t from 'tap'
import { signedHeaders } from '@app-platform/sdk'
import { until } from '../../../test/helper.ts'
import { portsOf } from '../../../server/app.ts'
import { install, stage, type Stage } from './fixture.ts'
import { recordOrderUsage, USAGE_PER_ORDER } from '../src/billing.ts'
import type { Installation } from '../src/index.ts'

const usd = (amount: number) => ({ amount, currency: 'USD' })

/** A session token for the app's admin page, as the admin panel issues it to the merchant. */
async function sessionToken (s: Stage, installation: Installation): Promise<string> {
  const issued = await s.platform.inject({ method: 'POST', url: `/merchant/installations/${installation.installationId}/session-token`, headers: s.merchant.auth })
  if (issued.statusCode !== 200) throw new Error(`session token: ${issued.body}`)
  return issued.json().sessionToken as string
}

async function overview (s: Stage, token: string) {
  const response = await fetch(`${s.appUrl}/admin/api/overview`, { headers: { authorization: `Bearer ${token}` } })
  if (response.status !== 200) throw new Error(`overview: ${response.status} ${await response.text()}`)
  return await response.json()
}

async function placeOrder (s: Stage): Promise<{ id: string, orderNumber: string }> {
  const products = (await s.platform.storefront.inject({ url: `/store/${s.merchant.slug}/api/products` })).json().data
  const placed = await s.platform.storefront.inject({
    method: 'POST', url: `/store/${s.merchant.slug}/api/orders`,
    payload: { items: [{ productId: products[0].id, quantity: 1 }], customer: { name: 'Hungry' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' }
  })
  if (placed.statusCode !== 201) throw new Error(`order: ${placed.body}`)
  return placed.json().order
}

t.test('the Pro plan: listed, upgraded to from the admin page, charged per order', async (t) => {
  const s = await stage(t)
  const installation = await install(s)
  const store = s.reference.reference.store
  const token = await sessionToken(s, installation)

  t.test('the approved listing shows the plan', async (t) => {
    const listing = (await s.platform.inject({ url: '/marketplace/apps/reference-app' })).json()
    t.match(listing.pricing.plans, [{ id: 'pro', name: 'Pro', kind: 'RECURRING', price: usd(999), interval: 'EVERY_30_DAYS', trialDays: 14, usage: { cappedAmount: usd(5000) } }])
  })

  t.test('orders on the free plan are not charged', async (t) => {
    t.match((await overview(s, token)).billing, { subscription: null, offer: { id: 'pro', name: 'Pro' } }, 'the admin page offers Pro')
    t.same(await recordOrderUsage(s.reference.reference.context, installation, { orderId: 'ord_free', orderNumber: '1' }), { skipped: 'no_active_subscription' })
  })

  let chargeId = ''
  t.test('POST /admin/api/upgrade asks for Pro; the merchant approves and comes back to the app', async (t) => {
    t.equal((await fetch(`${s.appUrl}/admin/api/upgrade`, { method: 'POST' })).status, 401, 'only with the panel\'s session token')
    const upgrade = await fetch(`${s.appUrl}/admin/api/upgrade`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    t.equal(upgrade.status, 200)
    const { subscription, confirmationUrl } = await upgrade.json()
    chargeId = subscription.id
    t.match(subscription, { id: /^sub_/, status: 'PENDING', planId: 'pro', test: false })
    t.equal(confirmationUrl, `${s.platform.origins.adminUrl.replace(/\/$/, '')}/admin/charges/${chargeId}`, 'the platform\'s approval page')
    const again = await (await fetch(`${s.appUrl}/admin/api/upgrade`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json()
    t.equal(again.subscription.id, chargeId, 'a second click sends the merchant to the same waiting charge')

    const approved = await s.platform.inject({ method: 'POST', url: `/merchant/charges/${chargeId}/approve`, headers: s.merchant.auth })
    t.equal(approved.statusCode, 200, approved.body)
    const back = new URL(approved.json().redirectUrl)
    t.equal(`${back.origin}${back.pathname}`, `${s.appUrl}/billing/return`, 'back on the app\'s own origin')
    t.same(Object.fromEntries(back.searchParams), { businessId: installation.businessId, charge_id: chargeId, status: 'ACTIVE' })

    const page = await fetch(back)
    t.equal(page.status, 200)
    const html = await page.text()
    t.match(html, /<h1 data-plan-status="ACTIVE">You are on Pro<\/h1>/)
    t.match(html, /9\.99 USD every 30 days, free trial until/)
    t.match(html, `/admin/apps/${installation.installationId}/pages/overview`, 'a link back to the app in the admin')
    t.equal(store.subscription(installation.businessId)?.status, 'ACTIVE', 'the app remembers the plan')

    const forged = new URL(back)
    forged.searchParams.set('status', 'DECLINED')
    t.match(await (await fetch(forged)).text(), /data-plan-status="ACTIVE"/, 'the status shown is the App API\'s, not the query\'s')
    t.equal((await fetch(`${s.appUrl}/billing/return?businessId=${installation.businessId}&charge_id=sub_unknown`)).status, 404)
    t.equal((await fetch(`${s.appUrl}/billing/return?businessId=biz_other&charge_id=${chargeId}`)).status, 404)

    t.match((await overview(s, token)).billing.subscription, { id: chargeId, status: 'ACTIVE', name: 'Pro' }, 'the admin page shows the plan')
    const conflict = await fetch(`${s.appUrl}/admin/api/upgrade`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    t.equal(conflict.status, 409, 'already on Pro')
  })

  t.test('each order processed is one usage record, keyed by the order id', async (t) => {
    const order = await placeOrder(s)
    await portsOf(s.platform).webhooks.delivery.idle()
    const used = async () => (await s.platform.inject({ url: '/merchant/billing', headers: s.merchant.auth })).json().usage as Array<{ subscriptionId: string, used: { amount: number } }>
    const usage = await until(used, (list) => list.some((u) => u.subscriptionId === chargeId && u.used.amount > 0))
    t.match(usage, [{ subscriptionId: chargeId, used: usd(USAGE_PER_ORDER), cap: usd(5000) }], 'the merchant sees the usage against the cap')
    t.ok(store.events(installation.businessId).some((e) => e.event === 'order.created' && e.summary.includes(`#${order.orderNumber}`)))

    // the same order again (a retry the app has not seen, a second process): the idempotency key records nothing
    const repeat = await recordOrderUsage(s.reference.reference.context, installation, { orderId: order.id, orderNumber: order.orderNumber })
    t.match(repeat, { recorded: { balanceUsed: usd(USAGE_PER_ORDER) } }, 'the first record answers')
    const body = JSON.stringify({
      event: 'order.created', timestamp: new Date().toISOString(), webhookId: 'wh_x', businessId: installation.businessId, data: { orderId: order.id, orderNumber: order.orderNumber, amount: 1 }
    })
    const delivered = await fetch(`${s.appUrl}/webhooks`, { method: 'POST', headers: { ...signedHeaders(body, installation.webhookSecret), 'x-service-event-id': 'evt_other_copy' }, body })
    t.equal(delivered.status, 200)
    t.match(await used(), [{ used: usd(USAGE_PER_ORDER) }], 'still one record')
    t.match((await overview(s, token)).billing.subscription.usage, { balanceUsed: usd(USAGE_PER_ORDER), balanceRemaining: usd(5000 - USAGE_PER_ORDER) })
  })

  t.test('past the cap the order goes on uncharged', async (t) => {
    // fill the cap from the App API directly, as any other usage would
    const api = s.reference.reference.context.api(installation)
    await api.billing.createUsageRecord(chargeId, { description: 'Bulk import', price: usd(5000 - USAGE_PER_ORDER), idempotencyKey: 'bulk-1' })
    t.same(await recordOrderUsage(s.reference.reference.context, installation, { orderId: 'ord_over', orderNumber: '99' }), { skipped: 'cap_reached' })
    const order = await placeOrder(s)
    await portsOf(s.platform).webhooks.delivery.idle()
    await until(async () => store.events(installation.businessId), (list) => list.some((e) => e.summary.includes(`#${order.orderNumber}`)))
    const deliveries = (await s.platform.inject({ url: `/developer/apps/${s.appId}/deliveries?event=order.created`, headers: s.developer.auth })).json().data
    t.ok(deliveries.every((d: { status: string }) => d.status === 'SUCCEEDED'), 'the webhook still answered 2xx')
  })

  t.test('app_subscription.updated keeps the app\'s view current: cancelled by the merchant', async (t) => {
    const cancelled = await s.platform.inject({ method: 'POST', url: `/merchant/subscriptions/${chargeId}/cancel`, headers: s.merchant.auth })
    t.equal(cancelled.statusCode, 200, cancelled.body)
    await portsOf(s.platform).webhooks.delivery.idle()
    const status = await until(async () => store.subscription(installation.businessId)?.status, (value) => value === 'CANCELLED')
    t.equal(status, 'CANCELLED', 'from the signed event')
    t.same(await recordOrderUsage(s.reference.reference.context, installation, { orderId: 'ord_after', orderNumber: '100' }), { skipped: 'no_active_subscription' })
    t.match((await overview(s, token)).billing, { subscription: null }, 'free again: the admin page offers Pro')
  })
})
