/**
 * Limits on the JSON Schemas apps supply (settings, block and embed settings), checked before Ajv
 * compiles them (DESIGN §21): a schema's validation time must be bounded by its size and the
 * input's, so no developer can stall the event loop with a recursive, exponential or quadratic schema.
 */
import { measureAsync, PATTERN_LIMITS, patternShapeProblem, worstCaseMs } from './pattern-budget.ts'

export const SCHEMA_LIMITS = {
  /** Nesting of subschemas, counted through every `$ref` (the root is level 1). */
  depth: 8,
  /** `properties` entries across the whole schema, `$ref`s expanded. */
  properties: 200,
  /** Subschemas after expanding `$ref`s: bounds the work per input value, whatever the references' shape. */
  nodes: 1000,
  /** `uniqueItems` compares every pair: only on arrays that cannot grow past this. */
  uniqueItemsMaxItems: 100,
  /** RE2 matches in time proportional to pattern × input: the pattern stays short. */
  patternLength: 256
} as const

/** Keywords whose value is one subschema, an array of them, or a map of them. */
const ONE = ['additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties']
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']
/** Identifiers and dynamic references would let one app's schema reach another's in a shared Ajv, or recurse. */
const REFUSED = ['$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor']

type Node = Record<string, unknown>
interface Visit { node: unknown, path: string, depth: number, refs: string[] }

function isNode (value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The subschema a local `$ref` (`#` or `#/json/pointer`) names, or undefined. */
function resolve (root: Node, ref: string): unknown {
  if (ref === '#') return root
  if (!ref.startsWith('#/')) return undefined
  let current: unknown = root
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isNode(current) && !Array.isArray(current)) return undefined
    if (!Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

function children (node: Node): Array<[unknown, string]> {
  const found: Array<[unknown, string]> = []
  for (const key of ONE) if (node[key] !== undefined && typeof node[key] !== 'boolean') found.push([node[key], key])
  if (Array.isArray(node.items)) node.items.forEach((item, i) => found.push([item, `items/${i}`]))
  else if (isNode(node.items)) found.push([node.items, 'items'])
  for (const key of MANY) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((item, i) => found.push([item, `${key}/${i}`]))
  for (const key of MAP) {
    if (isNode(node[key])) for (const [name, item] of Object.entries(node[key])) found.push([item, `${key}/${name}`])
  }
  if (isNode(node.dependencies)) {
    for (const [name, item] of Object.entries(node.dependencies)) if (isNode(item)) found.push([item, `dependencies/${name}`])
  }
  return found
}

/**
 * The first limit `schema` breaks, as a message naming it, or null. Walks iteratively with every
 * local `$ref` expanded in place, so a reference graph cannot hide depth or size.
 */
export function schemaLimitProblem (schema: Node): string | null {
  const stack: Visit[] = [{ node: schema, path: '', depth: 1, refs: [] }]
  let nodes = 0
  let properties = 0
  while (stack.length > 0) {
    const { node, path, depth, refs } = stack.pop() as Visit
    if (!isNode(node)) continue
    const at = path === '' ? '' : ` at ${path}`
    if (depth > SCHEMA_LIMITS.depth) return `nests deeper than ${SCHEMA_LIMITS.depth} levels${at} (limit: depth)`
    if (++nodes > SCHEMA_LIMITS.nodes) return `has more than ${SCHEMA_LIMITS.nodes} subschemas with $ref expanded (limit: size)`
    for (const key of REFUSED) if (key in node) return `uses ${key}${at}; only local "#/..." $ref is supported (limit: $ref)`
    if (isNode(node.properties)) {
      properties += Object.keys(node.properties).length
      if (properties > SCHEMA_LIMITS.properties) return `declares more than ${SCHEMA_LIMITS.properties} properties (limit: properties)`
    }
    if (node.uniqueItems === true && !(typeof node.maxItems === 'number' && node.maxItems <= SCHEMA_LIMITS.uniqueItemsMaxItems)) {
      return `uses uniqueItems${at} without maxItems ≤ ${SCHEMA_LIMITS.uniqueItemsMaxItems} (limit: uniqueItems)`
    }
    const patterns = [node.pattern, ...(isNode(node.patternProperties) ? Object.keys(node.patternProperties) : [])]
    if (patterns.some((pattern) => typeof pattern === 'string' && pattern.length > SCHEMA_LIMITS.patternLength)) {
      return `has a pattern longer than ${SCHEMA_LIMITS.patternLength} characters${at} (limit: pattern)`
    }
    if (node.$ref !== undefined) {
      const ref = node.$ref
      if (typeof ref !== 'string' || !ref.startsWith('#')) return `has $ref ${JSON.stringify(ref)}${at}; only local "#/..." references are supported (limit: $ref)`
      const pointer = ref.slice(1)
      if (ref === '#' || refs.includes(ref) || path === pointer || path.startsWith(`${pointer}/`)) return `has a recursive $ref ${JSON.stringify(ref)}${at} (limit: $ref recursion)`
      const target = resolve(schema, ref)
      if (target === undefined) return `has $ref ${JSON.stringify(ref)}${at} that names nothing in the schema (limit: $ref)`
      stack.push({ node: target, path: pointer, depth, refs: [...refs, ref] })
    }
    for (const [child, key] of children(node)) stack.push({ node: child, path: `${path}/${key}`, depth: depth + 1, refs })
  }
  return null
}

/** Every `pattern` of `schema` and `patternProperties` key, with the longest string it meets and how often it is written. */
function patternsOf (schema: Node, longest: number): Map<string, { length: number, count: number }> {
  const found = new Map<string, { length: number, count: number }>()
  const note = (pattern: string, length: number) => {
    const seen = found.get(pattern)
    found.set(pattern, { length: Math.max(seen?.length ?? 0, length), count: (seen?.count ?? 0) + 1 })
  }
  const stack: unknown[] = [schema]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!isNode(node)) continue
    const maxLength = typeof node.maxLength === 'number' ? Math.min(Math.max(node.maxLength, 0), longest) : longest
    if (typeof node.pattern === 'string') note(node.pattern, maxLength)
    if (isNode(node.patternProperties)) for (const key of Object.keys(node.patternProperties)) note(key, longest)
    for (const [child] of children(node)) stack.push(child)
  }
  return found
}

/**
 * The first pattern budget `schema` breaks (pattern-budget.ts), or null: each pattern's shape, then its
 * time on a worst-case input of its `maxLength` (or `longest`), then the sum over the schema (a pattern
 * written n times counts n times; one reached through `$ref`s counts once, the validation clock covers it). Measuring
 * stops at the first pattern over a budget, so a save costs at most about the budgets it checks.
 */
export function schemaPatternProblem (schema: Node, longest: number): string | null {
  const patterns = patternsOf(schema, longest)
  for (const pattern of patterns.keys()) {
    const shape = patternShapeProblem(pattern)
    if (shape !== null) return `has a pattern ${JSON.stringify(pattern.slice(0, 40))} that ${shape}`
  }
  let totalMs = 0
  for (const [pattern, { length, count }] of patterns) {
    const ms = worstCaseMs(pattern, length, PATTERN_LIMITS.patternMs)
    if (ms > PATTERN_LIMITS.patternMs) {
      return `has a pattern ${JSON.stringify(pattern.slice(0, 40))} that takes ${ms.toFixed(0)} ms on a worst-case string of ${length} characters; at most ${PATTERN_LIMITS.patternMs} ms: lower its maxLength or simplify it (limit: pattern time)`
    }
    totalMs += ms * count
    if (totalMs > PATTERN_LIMITS.schemaMs) {
      return `has patterns that take more than ${PATTERN_LIMITS.schemaMs} ms in all on worst-case strings of their maxLength: lower the maxLengths or use fewer patterns (limit: pattern time)`
    }
  }
  return null
}

/**
 * Times ahead the patterns of `schema` that schemaPatternProblem will time, yielding to the event loop
 * between runs, so that the synchronous check finds them measured. Patterns it refuses on shape, or
 * that do not compile, are left to it to report.
 */
export async function measurePatterns (schema: unknown, longest: number): Promise<void> {
  if (!isNode(schema)) return
  for (const [pattern, { length }] of patternsOf(schema, longest)) {
    try {
      if (patternShapeProblem(pattern) === null) await measureAsync(pattern, length, PATTERN_LIMITS.patternMs)
    } catch {
      // not RE2 syntax: validateManifest says so with the path
    }
  }
}

/** Settings are configuration: a value with more parts than this is refused before the schema runs. */
export const MAX_SETTING_VALUES = 1000

/** Whether `value` has more than MAX_SETTING_VALUES values (objects, arrays and leaves), counted iteratively. */
export function tooManyValues (value: unknown): boolean {
  const stack: unknown[] = [value]
  let count = 0
  while (stack.length > 0) {
    const current = stack.pop()
    if (++count > MAX_SETTING_VALUES) return true
    if (current !== null && typeof current === 'object') stack.push(...Object.values(current))
  }
  return false
}
