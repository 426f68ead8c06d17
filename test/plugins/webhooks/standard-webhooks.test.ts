import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { verifyHookRequest, verifyWebhook } from '../../../sdk/src/index.ts'
import { build, createApp, oauthInstall, publishApp, registerUser, REVIEWER_ENV, until } from '../../helper.ts'
import { placeOrder, receiver } from './helpers.ts'
import { cart, shop, startAppServer } from '../checkout-hooks/fixtures.ts'

/**
 * The Standard Webhooks option (DESIGN §21), checked by the `standardwebhooks` package itself on real
 * deliveries and hook calls: per registration (POST/PATCH /webhooks) and per app (its own webhook and
 * its hook calls); the spec's X-Webhook-* headers stay the default; the SDK verifies both.
 */
t.test('Standard Webhooks signatures', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')

  t.test('per registration: standard-webhooks beside the default spec scheme', async (t) => {
    const merchant = await registerUser(app, 'MERCHANT')
    const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_orders'] })
    await publishApp(app, developer, created.id)
    const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
    const standardSink = await receiver(t)
    const specSink = await receiver(t)
    const register = async (url: string, signatureScheme?: string) => {
      const response = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url, events: ['order.created'], ...(signatureScheme === undefined ? {} : { signatureScheme }) } })
      t.equal(response.statusCode, 201, response.body)
      return response.json()
    }
    const standard = await register(standardSink.url, 'standard-webhooks')
    const spec = await register(specSink.url)
    t.equal(standard.signatureScheme, 'standard-webhooks')
    t.equal(spec.signatureScheme, 'spec', 'spec is the default')
    t.match(standard.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'whsec_ and standard base64')

    await placeOrder(app, merchant.businessId)
    const [delivered] = await standardSink.waitFor(1)
    const verified = new Webhook(standard.secret).verify(delivered.body, delivered.headers as Record<string, string>) as { event: string }
    t.equal(verified.event, 'order.created', 'the standardwebhooks package verifies the delivery with the secret as given')
    t.match(delivered.headers, { 'webhook-id': /^dlv_/, 'webhook-timestamp': /^\d+$/, 'webhook-signature': /^v1,[A-Za-z0-9+/]{43}=$/ })
    t.equal(delivered.headers['x-service-event-id'], delivered.headers['webhook-id'], 'webhook-id is the delivery id; X-Service-Event-Id stays')
    t.notOk('x-webhook-signature' in delivered.headers, 'no spec signature beside it')
    t.equal(verifyWebhook(delivered.body, delivered.headers, standard.secret).eventId, delivered.headers['webhook-id'], 'the SDK verifies it too')

    const [specDelivered] = await specSink.waitFor(1)
    t.match(specDelivered.headers, { 'x-webhook-signature': /^sha256=[0-9a-f]{64}$/, 'x-webhook-timestamp': /^\d+$/ })
    t.notOk('webhook-signature' in specDelivered.headers)
    t.equal(verifyWebhook(specDelivered.body, specDelivered.headers, spec.secret).event, 'order.created')
    t.throws(() => new Webhook(spec.secret).verify(specDelivered.body, specDelivered.headers as Record<string, string>), /Missing required headers/)

    // a redelivery keeps the delivery id: the receiver's idempotency key
    const deliveryId = delivered.headers['webhook-id'] as string
    // a success is written with its group, just after the answer
    await until(async () => (await app.inject({ url: `/webhooks/${standard.id}/deliveries`, headers: installed.auth })).json().data, (data: Array<{ id: string }>) => data.some((d) => d.id === deliveryId))
    const redelivered = await app.inject({ method: 'POST', url: `/webhooks/${standard.id}/deliveries/${deliveryId}/redeliver`, headers: installed.auth })
    t.equal(redelivered.statusCode, 202)
    const [, again] = await standardSink.waitFor(2)
    t.equal(again.headers['webhook-id'], deliveryId, 'webhook-id is stable across attempts')
    t.doesNotThrow(() => new Webhook(standard.secret).verify(again.body, again.headers as Record<string, string>))

    const patched = await app.inject({ method: 'PATCH', url: `/webhooks/${standard.id}`, headers: installed.auth, payload: { signatureScheme: 'spec' } })
    t.equal(patched.json().signatureScheme, 'spec')
    t.notOk('secret' in patched.json(), 'the secret stays: no new one to show')
    await placeOrder(app, merchant.businessId)
    const [, , switched] = await standardSink.waitFor(3)
    t.ok('x-webhook-signature' in switched.headers, 'PATCH switches later deliveries')
    const bad = await app.inject({ method: 'PATCH', url: `/webhooks/${standard.id}`, headers: installed.auth, payload: { signatureScheme: 'hmac' } })
    t.equal(bad.statusCode, 400)
  })

  t.test('per app: its own webhook and its hook calls', async (t) => {
    const { merchant, slug, pizza, soda } = await shop(app)
    const server = await startAppServer(t, {
      '/base': () => ({ json: {} }),
      '/base/validate': () => ({ json: { valid: true } })
    })
    const { app: created, clientSecret } = await createApp(app, developer, {
      webhookUrl: `${server.url}/base`, webhookEvents: ['order.created'], scopes: ['read_orders'], webhookSignatureScheme: 'standard-webhooks'
    })
    t.equal(created.webhookSignatureScheme, 'standard-webhooks')
    const manifest = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { hooks: [{ hookPoint: 'order.validate', url: '/validate' }] } } })
    t.equal(manifest.statusCode, 200, manifest.body)
    await publishApp(app, developer, created.id)
    const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
    const own = (await app.inject({ url: '/webhooks', headers: installed.auth })).json().data
    t.match(own, [{ isAppWebhook: true, signatureScheme: 'standard-webhooks' }], "the app's own registration shows the app's scheme")
    const refused = await app.inject({ method: 'PATCH', url: `/webhooks/${own[0].id}`, headers: installed.auth, payload: { signatureScheme: 'spec' } })
    t.equal(refused.statusCode, 400, "the app's own webhook follows the app setting")

    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer: { name: 'Ada', phone: '+15550100' }, paymentMethod: 'CASH' } })
    t.equal(placed.statusCode, 201, placed.body)
    const hook = server.calls.find((call) => call.path === '/base/validate')
    if (hook === undefined) throw new Error('no hook call')
    const webhook = new Webhook(installed.webhookSecret)
    t.match(webhook.verify(hook.raw, hook.headers as Record<string, string>), { hookPoint: 'order.validate' }, 'the hook call verifies with the package')
    t.match(hook.headers, { 'webhook-id': /^hkc_/, 'webhook-signature': /^v1,/ })
    t.equal(verifyHookRequest(hook.raw, hook.headers, installed.webhookSecret).hookPoint, 'order.validate', 'and with the SDK')
    // the call log is written in batches, off the checkout's path
    const calls = await until(async () => (await app.inject({ url: `/developer/apps/${created.id}/hook-calls`, headers: developer.auth })).json().data as Array<{ id: string }>,
      (data) => data.length > 0)
    t.ok(calls.some((call) => call.id === hook.headers['webhook-id']), 'webhook-id is the call id of the hook-call log')

    const delivery = (await until(async () => server.calls.find((call) => call.path === '/base'), (found) => found !== undefined, 10_000))
    if (delivery === undefined) throw new Error("the app's own webhook got no delivery")
    t.match(webhook.verify(delivery.raw, delivery.headers as Record<string, string>), { event: 'order.created' }, "the app's own webhook delivery verifies")

    const switched = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { webhookSignatureScheme: 'spec' } })
    t.equal(switched.json().webhookSignatureScheme, 'spec')
  })

  t.test('a test install: standard-webhooks secrets are whsec_ + base64, taken as given; spec ones keep whsec_test_ until a switch to standard-webhooks replaces them', async (t) => {
    const { app: created } = await createApp(app, developer, { scopes: ['read_orders'] })
    const install = (await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).json()
    t.match(install, { isTestInstall: true, webhookSecret: /^whsec_test_[A-Za-z0-9+/]{43}=$/ }, "the spec scheme's installation secret keeps the marker")
    const sink = await receiver(t)
    const auth = { authorization: `Bearer ${install.accessToken}` }
    const registered = (await app.inject({ method: 'POST', url: '/webhooks', headers: auth, payload: { url: sink.url, events: ['order.created'], signatureScheme: 'standard-webhooks' } })).json()
    t.match(registered.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'whsec_ and standard base64, no test marker')
    const specSink = await receiver(t)
    const spec = (await app.inject({ method: 'POST', url: '/webhooks', headers: auth, payload: { url: specSink.url, events: ['order.created'] } })).json()
    t.match(spec.secret, /^whsec_test_/, "a spec registration's secret keeps the marker")
    await placeOrder(app, install.businessId)
    const [delivered] = await sink.waitFor(1)
    t.match(new Webhook(registered.secret).verify(delivered.body, delivered.headers as Record<string, string>), { event: 'order.created' }, 'the package verifies with the secret as given')
    t.equal(verifyWebhook(delivered.body, delivered.headers, registered.secret).event, 'order.created', 'the SDK too')

    t.throws(() => new Webhook(spec.secret), /incorrect characters/, 'the package cannot read a whsec_test_ secret')
    const switched = await app.inject({ method: 'PATCH', url: `/webhooks/${spec.id as string}`, headers: auth, payload: { signatureScheme: 'standard-webhooks' } })
    t.equal(switched.statusCode, 200, switched.body)
    const rolled = switched.json()
    t.match(rolled, { signatureScheme: 'standard-webhooks', secret: /^whsec_[A-Za-z0-9+/]{43}=$/ }, 'the switch to standard-webhooks issues a whsec_ + base64 secret, returned once')
    t.not(rolled.secret, spec.secret)
    t.notOk('secret' in (await app.inject({ url: `/webhooks/${spec.id as string}`, headers: auth })).json(), 'and never shown again')
    await placeOrder(app, install.businessId)
    const [, afterSwitch] = await specSink.waitFor(2)
    t.match(new Webhook(rolled.secret).verify(afterSwitch.body, afterSwitch.headers as Record<string, string>), { event: 'order.created' }, 'the package verifies later deliveries with the new secret as given')
    t.throws(() => verifyWebhook(afterSwitch.body, afterSwitch.headers, spec.secret), 'the old secret no longer signs')

    const back = (await app.inject({ method: 'PATCH', url: `/webhooks/${spec.id as string}`, headers: auth, payload: { signatureScheme: 'spec' } })).json()
    t.notOk('secret' in back, 'a switch back to spec keeps the secret')
    const again = (await app.inject({ method: 'PATCH', url: `/webhooks/${spec.id as string}`, headers: auth, payload: { signatureScheme: 'standard-webhooks' } })).json()
    t.notOk('secret' in again, 'a secret the package reads stays as it is: nothing new to show')
  })

  t.test("a test install of a standard-webhooks app: the installation's secret is whsec_ + base64", async (t) => {
    const { app: created } = await createApp(app, developer, { scopes: ['read_orders'], webhookSignatureScheme: 'standard-webhooks' })
    const install = (await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/test-install`, headers: developer.auth })).json()
    t.equal(install.isTestInstall, true)
    t.match(install.webhookSecret, /^whsec_[A-Za-z0-9+/]{43}=$/)
    t.doesNotThrow(() => new Webhook(install.webhookSecret), 'the package takes it as given')
  })
})
