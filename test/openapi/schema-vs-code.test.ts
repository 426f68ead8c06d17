import t from 'tap'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { build, createApp, registerUser, uniqueEmail } from '../helper.ts'

/**
 * Rules that used to live only in code (issue #32, item 3): for each body, the published document and
 * the server agree on whether it is valid. A client that validates against the document is then never
 * refused for a rule it could not see, nor kept from sending what the server takes.
 */
const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'))
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema({ $id: 'doc', components: document.components })
const documented = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` })

const WEB = 'https://app.example.com'
const manifests: Array<[string, Record<string, unknown>]> = [
  ['a script embed in the head', { embeds: [{ embedType: 'tag', name: 'Tag', kind: 'GLOBAL_SCRIPT', position: 'head', scriptUrl: `${WEB}/tag.js` }] }],
  ['a widget bottom left', { embeds: [{ embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_left', renderUrl: `${WEB}/chat` }] }],
  ['a script embed placed like a widget', { embeds: [{ embedType: 'tag', name: 'Tag', kind: 'GLOBAL_SCRIPT', position: 'bottom_right', scriptUrl: `${WEB}/tag.js` }] }],
  ['a widget placed like a script', { embeds: [{ embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'head', renderUrl: `${WEB}/chat` }] }],
  ['a script embed without its script', { embeds: [{ embedType: 'tag', name: 'Tag', kind: 'GLOBAL_SCRIPT', position: 'head' }] }],
  ['a widget without its page', { embeds: [{ embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_left' }] }],
  ['an unknown kind of embed', { embeds: [{ embedType: 'pop', name: 'Pop', kind: 'POPUP', position: 'head', scriptUrl: `${WEB}/pop.js` }] }],
  ['a known hook point', { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/rates' }] }],
  ['an unknown hook point', { hooks: [{ hookPoint: 'checkout.tax', url: '/tax' }] }],
  ['order.validate failing closed', { hooks: [{ hookPoint: 'order.validate', url: '/validate', failurePolicy: 'closed' }] }],
  ['a failure policy on another hook', { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/rates', failurePolicy: 'closed' }] }],
  ['a hook timeout past 10 s', { hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/rates', timeout: 20_000 }] }],
  ['a block with a relative page', { blocks: [{ blockType: 'hero', name: 'Hero', renderUrl: '/block' }] }],
  ['an unknown section', { themes: [] }]
]

t.test('the manifest: the document and validateManifest agree', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  // every scope a hook point needs, so that only the manifest's own rules decide
  const { app: created } = await createApp(app, developer, { scopes: ['read_orders', 'write_shipping', 'write_orders', 'write_payments', 'write_discounts'] })
  const validate = documented('Manifest')
  for (const [name, manifest] of manifests) {
    const answer = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest?dryRun=true`, headers: developer.auth, payload: { manifest } })
    t.ok([200, 400].includes(answer.statusCode), `${name}: ${answer.statusCode} ${answer.statusCode === 400 ? answer.json().message as string : ''}`)
    t.equal(validate(manifest), answer.statusCode === 200, `${name}: the document says ${validate(manifest) ? 'valid' : 'invalid'}, the server ${answer.statusCode}`)
  }
})

t.test('registration: the document and the server agree on emails and on a merchant’s business name', async (t) => {
  const app = await build(t)
  const validate = documented('RegisterBody')
  const bodies: Array<[string, Record<string, unknown>]> = [
    ['a developer', { email: uniqueEmail('dev'), password: 'correct-horse', name: 'Dana', role: 'DEVELOPER' }],
    ['a merchant with a business', { email: uniqueEmail('shop'), password: 'correct-horse', name: 'Rosa', role: 'MERCHANT', businessName: 'Rosa’s' }],
    ['a merchant without one', { email: uniqueEmail('shop'), password: 'correct-horse', name: 'Rosa', role: 'MERCHANT' }],
    ['an email without a domain', { email: 'dana@', password: 'correct-horse', name: 'Dana', role: 'DEVELOPER' }],
    ['an email with a space', { email: 'da na@example.com', password: 'correct-horse', name: 'Dana', role: 'DEVELOPER' }],
    ['an email without a dot in its domain', { email: `dana${Date.now()}@localhost`, password: 'correct-horse', name: 'Dana', role: 'DEVELOPER' }]
  ]
  for (const [name, body] of bodies) {
    const answer = await app.inject({ method: 'POST', url: '/auth/register', payload: body })
    t.ok([201, 400].includes(answer.statusCode), `${name}: ${answer.statusCode}`)
    t.equal(validate(body), answer.statusCode === 201, `${name}: the document says ${validate(body) ? 'valid' : 'invalid'}, the server ${answer.statusCode}`)
  }
})

/**
 * Inputs an outside fuzzer found the document allowing and the server refusing (issue #38 item 6):
 * the OAuth form bodies' required fields, the per-line quantity (MAX_LINE_QUANTITY), the device
 * user code's format, promo codes' exactly-one-of and the trigger's events. Each is judged by the
 * committed document and by the server; they must agree.
 */
t.test('rules the server enforces are in the committed document', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const { app: created, clientSecret } = await createApp(app, developer)
  const basic = { authorization: `Basic ${Buffer.from(`${created.clientId}:${clientSecret}`).toString('base64')}` }
  const agree = (schema: string, cases: Array<[string, unknown, (body: unknown) => Promise<{ statusCode: number, body: string }>, number[]]>) => async () => {
    const validate = documented(schema)
    for (const [name, body, send, refusedWith] of cases) {
      const answer = await send(body)
      const refused = refusedWith.includes(answer.statusCode)
      t.equal(validate(body), !refused, `${schema}, ${name}: the document says ${validate(body) ? 'valid' : 'invalid'}, the server ${answer.statusCode} ${refused ? answer.body.slice(0, 120) : ''}`)
    }
  }
  const form = (url: string, headers: Record<string, string> = {}) => async (body: unknown) =>
    await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(body as Record<string, string>).toString() })

  await t.test('POST /oauth/token', agree('TokenRequest', [
    ['no grant_type', { code: 'x', redirect_uri: created.redirectUrl }, form('/oauth/token', basic), [400]],
    ['no code', { grant_type: 'authorization_code', redirect_uri: created.redirectUrl }, form('/oauth/token', basic), [400]],
    ['no redirect_uri', { grant_type: 'authorization_code', code: 'abc' }, form('/oauth/token', basic), [400]],
    ['an unsupported grant', { grant_type: 'password', code: 'abc', redirect_uri: created.redirectUrl }, form('/oauth/token', basic), [400]],
    ['the device grant without device_code', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'app-platform-cli' }, form('/oauth/token'), [400]],
    ['the device grant for another client', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'other', device_code: 'x' }, form('/oauth/token'), [401]]
  ]))
  await t.test('POST /oauth/revoke and /oauth/device_authorization', async () => {
    await agree('RevokeRequest', [['no token', {}, form('/oauth/revoke', basic), [400]], ['a token', { token: 'fbat_x' }, form('/oauth/revoke', basic), [400]]])()
    await agree('DeviceAuthorizationRequest', [
      ['no client_id', {}, form('/oauth/device_authorization'), [400, 401]],
      ['another client', { client_id: 'other' }, form('/oauth/device_authorization'), [400, 401]],
      ['the CLI', { client_id: 'app-platform-cli' }, form('/oauth/device_authorization'), [400, 401]]
    ])()
  })
  await t.test('POST /oauth/device: the user code format', agree('DeviceDecision', [
    ['a code as shown', { user_code: 'BCDF-GHJK', decision: 'approve' }, async (body) => await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: body as object }), [400]],
    ['any case, spaces', { user_code: 'bcdf ghjk', decision: 'approve' }, async (body) => await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: body as object }), [400]],
    ['vowels', { user_code: 'ABCD-EFGH', decision: 'approve' }, async (body) => await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: body as object }), [400]],
    ['too short', { user_code: 'BCDF', decision: 'approve' }, async (body) => await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: body as object }), [400]]
  ]))
  const me = (await app.inject({ url: '/auth/me', headers: merchant.auth })).json()
  const product = (await app.inject({ method: 'POST', url: '/merchant/products', headers: merchant.auth, payload: { name: 'Tea', price: 500, stock: 100 } })).json()
  const quote = async (body: unknown) => await app.storefront.inject({ method: 'POST', url: `/store/${me.business.slug as string}/api/orders`, payload: body as object })
  const order = (quantity: number) => ({ items: [{ productId: product.id, quantity }], customer: { name: 'Ada' }, deliveryMethod: 'PICKUP', paymentMethod: 'CASH' })
  await t.test('an order line: at most MAX_LINE_QUANTITY', agree('GuestOrderBody', [
    ['20', order(20), quote, [400]], ['21', order(21), quote, [400]], ['1000', order(1000), quote, [400]]
  ]))
  const promo = async (body: unknown) => await app.inject({ method: 'POST', url: '/merchant/promo-codes', headers: merchant.auth, payload: body as object })
  let n = 0
  const code = () => `FUZZ${++n}`
  await t.test('promo codes: exactly one of percentOff and amountOff', agree('CreatePromoCodeBody', [
    ['percentOff', { code: code(), percentOff: 10 }, promo, [400]],
    ['amountOff', { code: code(), amountOff: 100 }, promo, [400]],
    ['both', { code: code(), percentOff: 10, amountOff: 100 }, promo, [400]],
    ['neither', { code: code() }, promo, [400]]
  ]))
  const promoId = (await promo({ code: code(), percentOff: 5 })).json().id as string
  const patchPromo = async (body: unknown) => await app.inject({ method: 'PATCH', url: `/merchant/promo-codes/${promoId}`, headers: merchant.auth, payload: body as object })
  await t.test('a promo patch: never both, never neither', agree('UpdatePromoCodeBody', [
    ['both', { percentOff: 10, amountOff: 100 }, patchPromo, [400]],
    ['both null', { percentOff: null, amountOff: null }, patchPromo, [400]],
    ['switching kind', { percentOff: null, amountOff: 100 }, patchPromo, [400]]
  ]))
  const trigger = async (body: unknown) => await app.inject({ method: 'POST', url: `/developer/apps/${created.id}/trigger`, headers: developer.auth, payload: body as object })
  await t.test('the trigger: the events it emits', agree('TriggerBody', [
    ['order.created', { event: 'order.created' }, trigger, [400]], ['webhook.test', { event: 'webhook.test' }, trigger, [400]], ['no such event', { event: 'order.exploded' }, trigger, [400]]
  ]))
})
