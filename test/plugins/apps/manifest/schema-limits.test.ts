import t from 'tap'
import { settingsValidator } from '../../../../plugins/apps/manifest/validate.ts'
import { MAX_SETTING_VALUES, SCHEMA_LIMITS, schemaLimitProblem } from '../../../../plugins/apps/manifest/schema-limits.ts'
import { build, createApp, registerUser } from '../../../helper.ts'
import { longestStall } from './event-loop.ts'

const BLOCK = { blockType: 'promo', name: 'Promo', renderUrl: 'https://app.example.com/blocks/promo' }
const STALL_MS = 100

/** The reported bomb: a recursive `$ref` under `anyOf`, fed an input that fails every branch at the bottom. */
const RECURSIVE = {
  type: 'object',
  properties: { tree: { $ref: '#/$defs/node' } },
  $defs: { node: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/node' } }, { type: 'array', items: { $ref: '#/$defs/node' } }, { type: 'integer' }] } }
}
const nested = (depth: number): unknown => depth === 0 ? 'leaf' : [nested(depth - 1)]

t.test('PUT /developer/apps/:appId/manifest refuses schema bombs without stalling the event loop', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const dryRun = (settingsSchema: unknown, defaultConfig?: unknown) => app.inject({
    method: 'PUT', url: `/developer/apps/${created.id}/manifest?dryRun=true`, headers: developer.auth,
    payload: { manifest: { blocks: [{ ...BLOCK, settingsSchema, ...(defaultConfig !== undefined ? { defaultConfig } : {}) }] } }
  })
  await dryRun({ type: 'object' })

  let response = await dryRun(RECURSIVE, { tree: nested(24) })
  const stall = await longestStall(async () => { response = await dryRun(RECURSIVE, { tree: nested(24) }) })
  t.equal(response.statusCode, 400)
  t.match(response.json().message, /blocks\/0\/settingsSchema: breaks a platform limit: .*recursive \$ref.*\(limit: \$ref recursion\)/)
  t.ok(stall < STALL_MS, `event loop stalled at most ${stall.toFixed(1)} ms`)

  // top-level settings are scalars to the admin form, but a property under anyOf takes an array
  const quadratic = { type: 'object', properties: { list: { anyOf: [{ type: 'array', uniqueItems: true }] } } }
  const list = Array.from({ length: 5000 }, (_, i) => i)
  await dryRun({ type: 'object' }, { list })
  const unique = await longestStall(async () => { response = await dryRun(quadratic, { list }) })
  t.equal(response.statusCode, 400)
  t.match(response.json().message, /uniqueItems .*maxItems ≤ 100 \(limit: uniqueItems\)/)
  t.ok(unique < STALL_MS, `uniqueItems: stalled at most ${unique.toFixed(1)} ms`)

  const bounded = await dryRun({ type: 'object', properties: { list: { anyOf: [{ type: 'array', uniqueItems: true, maxItems: 100 }] } } }, { list: [1, 2, 3] })
  t.equal(bounded.statusCode, 200, 'uniqueItems with maxItems ≤ 100 is allowed')
})

t.test('each limit is a 400 naming it', async (t) => {
  const deep = (levels: number): Record<string, unknown> => levels === 1 ? { type: 'string' } : { type: 'object', properties: { x: deep(levels - 1) } }
  t.equal(schemaLimitProblem(deep(SCHEMA_LIMITS.depth)), null, 'depth 8 is fine')
  t.match(schemaLimitProblem(deep(SCHEMA_LIMITS.depth + 1)), /deeper than 8 levels .*\(limit: depth\)/)
  const wide = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])) })
  t.equal(schemaLimitProblem(wide(200)), null)
  t.match(schemaLimitProblem(wide(201)), /more than 200 properties \(limit: properties\)/)
  t.match(schemaLimitProblem({ type: 'object', properties: { a: { type: 'string', pattern: 'a'.repeat(257) } } }), /\(limit: pattern\)/)
  t.match(schemaLimitProblem({ $ref: 'https://evil.example.com/schema.json' }), /only local .*\(limit: \$ref\)/)
  t.match(schemaLimitProblem({ $ref: '#/$defs/missing' }), /names nothing/)
  t.match(schemaLimitProblem({ $id: 'https://x.example.com/a', type: 'object' }), /uses \$id/)
  t.match(schemaLimitProblem({ $ref: '#' }), /recursive/)
  t.match(schemaLimitProblem({ $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }), /recursive/, 'a cycle through two definitions')

  // a reference graph that doubles at every level: shallow as written, exponential once expanded
  const defs: Record<string, unknown> = { d0: { type: 'integer' } }
  for (let i = 1; i <= 12; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] }
  t.match(schemaLimitProblem({ $defs: defs, $ref: '#/$defs/d12' }), /\(limit: (depth|size)\)/, 'a doubling DAG of references')
})

t.test('the worst schema inside the limits validates the largest input quickly', async (t) => {
  // 3 levels of 5-way anyOf over references: as many subschemas as the limits allow, every branch failing
  const defs: Record<string, unknown> = { d0: { type: 'array', items: { type: 'integer' } } }
  for (let i = 1; i <= 3; i++) defs[`d${i}`] = { anyOf: Array.from({ length: 5 }, () => ({ $ref: `#/$defs/d${i - 1}` })) }
  const schema = { type: 'object', properties: { list: { type: 'array', items: { $ref: '#/$defs/d3' } } }, $defs: defs }
  t.equal(schemaLimitProblem(schema), null, 'inside the limits')
  const validate = settingsValidator(schema)
  const input = { list: Array.from({ length: MAX_SETTING_VALUES - 10 }, () => 'x') }
  let valid = true
  const stall = await longestStall(async () => { valid = validate(input) })
  t.equal(valid, false)
  t.ok(stall < STALL_MS, `stalled at most ${stall.toFixed(1)} ms`)
  t.equal(validate({ list: Array.from({ length: MAX_SETTING_VALUES + 1 }, () => [1]) }), false, 'an input past the value cap is refused before the schema runs')
  t.match(validate.errors, [{ keyword: 'maxValues' }])
})

t.test('a stored schema over the limits refuses merchant input rather than running', async (t) => {
  const validate = settingsValidator(RECURSIVE)
  const started = performance.now()
  t.equal(validate({ tree: nested(24) }), false)
  t.ok(performance.now() - started < STALL_MS)
  t.match(validate.errors, [{ message: /settingsSchema has a recursive \$ref/ }])
})
