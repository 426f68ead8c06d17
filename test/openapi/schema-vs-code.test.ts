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
