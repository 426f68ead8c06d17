import t from 'tap'
import { validateManifest, describeProblems, type AppContext } from '../../../../plugins/apps/manifest/validate.ts'
import { HOOK_POINTS } from '../../../../plugins/apps/manifest/schemas.ts'

const app: AppContext = { scopes: ['read_orders', 'write_payments', 'write_shipping', 'write_discounts'], webhookUrl: 'https://app.example.com/hooks', production: false }
const block = { blockType: 'reviews-carousel', name: 'Reviews', renderUrl: 'https://app.example.com/blocks/reviews' }
const script = { embedType: 'tracker', name: 'Tracker', kind: 'GLOBAL_SCRIPT', position: 'head', scriptUrl: 'https://cdn.example.com/t.js' }
const widget = { embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: 'https://app.example.com/chat' }
const settingsSchema = { type: 'object', properties: { color: { type: 'string', format: 'color' }, count: { type: 'integer', minimum: 1 } }, required: ['count'] }

const problemsOf = (manifest: unknown, context = app) => validateManifest(manifest, context)
const paths = (manifest: unknown, context = app) => problemsOf(manifest, context).map((p) => p.path)

t.test('a complete, valid manifest has no problems', async (t) => {
  t.same(problemsOf({
    settingsSchema: { type: 'object', properties: { apiKey: { type: 'string' }, startsAt: { type: 'string', format: 'date-time' }, site: { type: 'string', format: 'uri' }, on: { type: 'boolean' } } },
    blocks: [{ ...block, settingsSchema, defaultConfig: { color: '#ff0000', count: 3 } }],
    embeds: [script, widget],
    hooks: [{ hookPoint: 'order.validate', url: '/hooks/validate', timeout: 2000, priority: 10, failurePolicy: 'closed' }, { hookPoint: 'checkout.payment_methods', url: '/hooks/methods' }],
    adminPages: [{ pageId: 'dashboard', title: 'Dashboard', renderUrl: 'https://app.example.com/admin' }]
  }), [])
  t.same(problemsOf({}), [], 'an empty manifest is valid')
})

t.test('a bad hookPoint names the allowed points', async (t) => {
  const [problem] = problemsOf({ hooks: [{ hookPoint: 'cart.updated', url: '/x' }] })
  t.equal(problem.path, '/hooks/0/hookPoint')
  for (const point of HOOK_POINTS) t.match(problem.message, point)
})

t.test('duplicate keys of each kind', async (t) => {
  t.same(paths({ blocks: [block, block] }), ['/blocks/1/blockType'])
  t.same(paths({ embeds: [script, { ...script, name: 'Again' }] }), ['/embeds/1/embedType'])
  t.same(paths({ hooks: [{ hookPoint: 'order.validate', url: '/a' }, { hookPoint: 'order.validate', url: '/b' }] }), ['/hooks/1/hookPoint'])
  t.same(paths({ adminPages: [{ pageId: 'p', title: 'P', renderUrl: 'https://a.example' }, { pageId: 'p', title: 'Q', renderUrl: 'https://b.example' }] }), ['/adminPages/1/pageId'])
})

t.test('embed kinds and positions', async (t) => {
  t.same(paths({ embeds: [{ ...script, scriptUrl: undefined }] }), ['/embeds/0/scriptUrl'], 'GLOBAL_SCRIPT without scriptUrl')
  t.same(paths({ embeds: [{ ...widget, renderUrl: undefined }] }), ['/embeds/0/renderUrl'], 'FLOATING_WIDGET without renderUrl')
  t.match(problemsOf({ embeds: [{ ...widget, position: 'head' }] }), [{ path: '/embeds/0/position', message: /bottom_right or bottom_left for FLOATING_WIDGET/ }])
  t.match(problemsOf({ embeds: [{ ...script, position: 'bottom_left' }] }), [{ path: '/embeds/0/position', message: /head or body_end/ }])
  t.same(paths({ embeds: [{ ...script, kind: 'POPUP' }] }), ['/embeds/0/kind'])
})

t.test('settings schemas must compile and defaults must satisfy them', async (t) => {
  t.match(problemsOf({ blocks: [{ ...block, settingsSchema: { type: 'object', properties: { n: { type: 'nonsense' } } } }] }), [{ path: '/blocks/0/settingsSchema/properties/n' }], 'unknown field type')
  t.match(problemsOf({ settingsSchema: { type: 'object', properties: { n: { type: 'string', minLength: 'three' } } } }), [{ path: '/settingsSchema', message: /not a valid JSON Schema/ }])
  t.match(problemsOf({ settingsSchema: { type: 'array' } }), [{ message: /type "object"/ }])
  t.match(problemsOf({ settingsSchema: { type: 'object', properties: { d: { type: 'string', format: 'email' } } } }), [{ message: /format must be one of color, date-time, uri/ }])
  // the first problem only: app schemas run without allErrors, so a failing value cannot walk every branch
  t.same(paths({ blocks: [{ ...block, settingsSchema, defaultConfig: { color: 'red', count: 0 } }] }), ['/blocks/0/defaultConfig/color'])
  t.match(problemsOf({ blocks: [{ ...block, settingsSchema, defaultConfig: { color: '#fff', count: 0 } }] }), [
    { path: '/blocks/0/defaultConfig/count', message: /does not match settingsSchema/ }
  ])
  t.match(problemsOf({ embeds: [{ ...script, settingsSchema, defaultConfig: {} }] }), [{ path: '/embeds/0/defaultConfig', message: /count/ }])
  t.same(paths({ blocks: [{ ...block, defaultConfig: { a: 1 } }] }), ['/blocks/0/defaultConfig'], 'defaults without a schema')
})

t.test('hook rules', async (t) => {
  t.match(problemsOf({ hooks: [{ hookPoint: 'order.validate', url: 'https://elsewhere.example/x' }] }), [{ path: '/hooks/0/url', message: /path starting with/ }])
  t.match(problemsOf({ hooks: [{ hookPoint: 'order.validate', url: '/v' }] }, { ...app, webhookUrl: null }), [{ path: '/hooks/0/url', message: /needs a webhookUrl/ }])
  t.match(problemsOf({ hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/s' }] }, { ...app, scopes: ['read_orders'] }), [{ message: /needs the write_shipping scope/ }])
  t.match(problemsOf({ hooks: [{ hookPoint: 'checkout.shipping_rates', url: '/s', failurePolicy: 'closed' }] }), [{ path: '/hooks/0/failurePolicy' }])
  t.match(problemsOf({ hooks: [{ hookPoint: 'order.validate', url: '/v', timeout: 60_000 }] }), [{ path: '/hooks/0/timeout' }], 'timeout at most 10 s')
})

t.test('limits: 25 blocks, 10 embeds, 5 hooks, 20 admin pages', async (t) => {
  const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i))
  t.same(problemsOf({ blocks: many(25, (i) => ({ ...block, blockType: `b${i}` })) }), [])
  t.same(paths({ blocks: many(26, (i) => ({ ...block, blockType: `b${i}` })) }), ['/blocks'])
  t.same(paths({ embeds: many(11, (i) => ({ ...script, embedType: `e${i}` })) }), ['/embeds'])
  t.same(paths({ hooks: many(6, () => ({ hookPoint: 'order.validate', url: '/v' })) }), ['/hooks'])
  t.same(paths({ adminPages: many(21, (i) => ({ pageId: `p${i}`, title: 'P', renderUrl: 'https://a.example' })) }), ['/adminPages'])
})

t.test('structure: unknown keys, wrong types, missing fields, bad URLs', async (t) => {
  t.match(problemsOf({ widgets: [] }), [{ path: '/', message: /unknown property "widgets"/ }])
  t.match(problemsOf({ blocks: [{ ...block, name: 5 }] }), [{ path: '/blocks/0/name' }])
  t.match(problemsOf({ blocks: [{ name: 'x', renderUrl: 'https://a.example' }] }), [{ path: '/blocks/0', message: /blockType/ }])
  t.match(problemsOf('a string'), [{ path: '/' }])
  t.same(paths({ blocks: [{ ...block, renderUrl: 'javascript:alert(1)' }] }), ['/blocks/0/renderUrl'])
  t.same(paths({ blocks: [{ ...block, renderUrl: 'http://app.example.com/b' }] }, { ...app, production: true }), ['/blocks/0/renderUrl'], 'https in production')
})

t.test('all problems are reported at once, readably', async (t) => {
  const problems = problemsOf({ blocks: [block, block], embeds: [{ ...script, scriptUrl: undefined }], hooks: [{ hookPoint: 'nope', url: 'x' }] })
  t.equal(problems.length, 4)
  t.match(describeProblems(problems), /^Invalid manifest: \/blocks\/1\/blockType: duplicate .*; \/embeds\/0\/scriptUrl: is required/)
})

t.test('settingsValidator compiles a schema once, whatever object it arrives in', async (t) => {
  const { settingsValidator } = await import('../../../../plugins/apps/manifest/validate.ts')
  const first = settingsValidator({ type: 'object', properties: { n: { type: 'integer' } } })
  const again = settingsValidator(JSON.parse(JSON.stringify({ type: 'object', properties: { n: { type: 'integer' } } })))
  t.equal(first, again, 'the same compiled function for an equal schema from the database')
  t.ok(first({ n: 1 }))
  t.notOk(first({ n: 'x' }))
})

t.test('structure and rules in one answer (DESIGN §22): the rules run on every sound part', async (t) => {
  const problems = problemsOf({
    blocks: [{ ...block, renderUrl: 'ftp://app.example.com/x' }, { blockType: 'no-name', renderUrl: 'https://app.example.com/b' }],
    embeds: [{ ...script, position: 'footer' }],
    hooks: [{ hookPoint: 'order.validate', url: 42 }, { hookPoint: 'cart.updated', url: '/x' }, { hookPoint: 'order.validate', url: 'relative' }],
    settingsSchema: { type: 'array' },
    extra: true
  })
  t.same(problems.map((p) => p.path).sort(), [
    '/', // unknown property "extra"
    '/blocks/0/renderUrl', // a rule
    '/blocks/1', // structure: name is required
    '/embeds/0/position', // a rule
    '/hooks/0/url', // structure: not a string
    '/hooks/1/hookPoint', // a rule
    '/hooks/2/url', // a rule: not a path
    '/settingsSchema' // a rule
  ].sort())
  t.match(problems.find((p) => p.path === '/hooks/0/url'), { message: /must be string/ })
  t.same(paths({ hooks: [{ hookPoint: 'order.validate', url: 42 }, { hookPoint: 'order.validate', url: '/b' }] }), ['/hooks/0/url'], 'an unsound item is left out of the duplicate check')
  t.same(paths({ hooks: 'none', blocks: [{ ...block, renderUrl: 'nope' }] }), ['/hooks', '/blocks/0/renderUrl'], 'a section of the wrong type, and the others still checked')
  t.match(problemsOf([]), [{ path: '/' }], 'not an object: the structure alone')
})
