import t from 'tap'
import { MAX_SETTING_VALUES, SCHEMA_LIMITS, schemaLimitProblem, tooManyValues } from '../../../../plugins/apps/manifest/schema-limits.ts'

// The limits' edges, on plain objects: schema-limits.test.ts shows the same limits refusing a manifest
// through the API without stalling the event loop.
const string = { type: 'string' }

t.test('each limit holds at its figure and refuses one past it', async (t) => {
  const list = (n: number) => ({ type: 'object', properties: { a: { allOf: Array.from({ length: n }, () => string) } } })
  // root, a, and the allOf entries: SCHEMA_LIMITS.nodes subschemas in all is the most
  t.equal(schemaLimitProblem(list(SCHEMA_LIMITS.nodes - 2)), null, `${SCHEMA_LIMITS.nodes} subschemas`)
  t.match(schemaLimitProblem(list(SCHEMA_LIMITS.nodes - 1)), /more than 1000 subschemas .*\(limit: size\)/)

  const array = (maxItems?: number) => ({ type: 'array', uniqueItems: true, ...(maxItems === undefined ? {} : { maxItems }) })
  t.equal(schemaLimitProblem(array(SCHEMA_LIMITS.uniqueItemsMaxItems)), null)
  t.match(schemaLimitProblem(array(SCHEMA_LIMITS.uniqueItemsMaxItems + 1)), /uniqueItems without maxItems ≤ 100 \(limit: uniqueItems\)/)
  t.match(schemaLimitProblem(array()), /\(limit: uniqueItems\)/)
  t.equal(schemaLimitProblem({ type: 'array', uniqueItems: false }), null, 'uniqueItems: false costs nothing')

  t.equal(schemaLimitProblem({ type: 'string', pattern: 'a'.repeat(SCHEMA_LIMITS.patternLength) }), null)
  t.match(schemaLimitProblem({ type: 'object', patternProperties: { ['b'.repeat(SCHEMA_LIMITS.patternLength + 1)]: string } }), /\(limit: pattern\)/,
    'a patternProperties key is a pattern too')
})

t.test('the properties limit counts across the schema and through $ref', async (t) => {
  const props = (n: number, prefix = 'p') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, string]))
  const half = props(100)
  // 99 + nested at the top, 100 inside: 200
  t.equal(schemaLimitProblem({ type: 'object', properties: { ...props(99), nested: { type: 'object', properties: half } } }), null, '200 in two objects')
  t.match(schemaLimitProblem({ type: 'object', properties: { ...half, nested: { type: 'object', properties: half } } }), /more than 200 properties/, '201 in two objects')
  const twice = { $defs: { half: { type: 'object', properties: half } }, type: 'object', properties: { a: { $ref: '#/$defs/half' }, b: { $ref: '#/$defs/half' } } }
  t.match(schemaLimitProblem(twice), /more than 200 properties/, 'a definition used twice counts twice')
})

t.test('identifiers and dynamic references are refused wherever they are, named by path', async (t) => {
  for (const keyword of ['$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor']) {
    t.match(schemaLimitProblem({ type: 'object', properties: { inner: { [keyword]: 'x' } } }), `uses ${keyword} at /properties/inner;`, keyword)
  }
  t.match(schemaLimitProblem({ not: { items: [string, { $ref: 42 }] } }), /has \$ref 42 at \/not\/items\/1; only local/)
})

t.test('local references resolve JSON pointers, escapes included', async (t) => {
  const defs = { 'a/b': string, 'c~d': string, 'e f': string }
  for (const ref of ['#/$defs/a~1b', '#/$defs/c~0d', '#/$defs/e%20f']) t.equal(schemaLimitProblem({ $defs: defs, $ref: ref }), null, ref)
  t.match(schemaLimitProblem({ $defs: defs, $ref: '#/$defs/a/b' }), /names nothing/, 'an unescaped slash is two steps')
  t.equal(schemaLimitProblem({ $defs: { list: [string] }, $ref: '#/$defs/list/0' }), null, 'through an array index')
  t.match(schemaLimitProblem({ $defs: { self: { properties: { again: { $ref: '#/$defs/self' } } } }, $ref: '#/$defs/self' }), /recursive \$ref "#\/\$defs\/self"/)
})

t.test('boolean subschemas and unknown keywords are no subschemas', async (t) => {
  t.equal(schemaLimitProblem({ type: 'object', additionalProperties: false, not: true, 'x-note': { $id: 'ignored' }, dependencies: { a: ['b'] } }), null)
  t.match(schemaLimitProblem({ type: 'object', dependencies: { a: { $anchor: 'x' } } }), /uses \$anchor at \/dependencies\/a/, 'a schema dependency is walked')
})

t.test('tooManyValues counts objects, arrays and leaves', async (t) => {
  t.notOk(tooManyValues(Array.from({ length: MAX_SETTING_VALUES - 1 }, () => 1)), 'the array and its 999 items')
  t.ok(tooManyValues(Array.from({ length: MAX_SETTING_VALUES }, () => 1)))
  t.ok(tooManyValues({ a: Array.from({ length: MAX_SETTING_VALUES }, () => ({})) }), 'empty objects count')
  t.notOk(tooManyValues('x'.repeat(100_000)), 'a long string is one value')
  let deep: unknown = null
  for (let i = 0; i < MAX_SETTING_VALUES / 2; i++) deep = [deep]
  t.notOk(tooManyValues(deep), 'deep nesting is counted without recursion')
})
