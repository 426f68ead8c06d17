import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { compilePendingValidators } from './validation.ts'

type SerializerFactory = ReturnType<typeof SerializerSelector>
type Serializer = (doc: unknown) => string
type SerializerBuilder = ReturnType<SerializerFactory>

/**
 * Response serializers compiled once per process for each schema shape, and shared by every app the
 * process builds (fastify's own factory compiles each route's anew for each instance). A serializer
 * depends only on its schema, the instance's shared schemas (`addSchema`) and the serializer options,
 * so those, as JSON, are its key: the same shape built again (the test suite builds hundreds of apps
 * per process, where compiling the responses was a fifth of each build's CPU) reuses the function.
 * Like the validators (server/validation.ts), a shape is compiled when a response first needs it, not
 * when the routes are made ready.
 */
const compiled = new Map<string, Serializer>()
/** The shapes asked for and not compiled yet, each with the builder and route it first came with. */
const pending = new Map<string, { build: SerializerBuilder, route: Parameters<SerializerBuilder>[0] }>()
const fastJsonStringify: SerializerFactory = SerializerSelector()

function serializerOf (key: string): Serializer {
  let serializer = compiled.get(key)
  if (serializer === undefined) {
    const { build, route } = pending.get(key) as { build: SerializerBuilder, route: Parameters<SerializerBuilder>[0] }
    // unions written the cheap way, in the serializer's copy of the schema (withCheapUnions)
    serializer = build({ ...route, schema: withCheapUnions(route.schema) })
    compiled.set(key, serializer)
    pending.delete(key)
  }
  return serializer
}

export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const build = fastJsonStringify(externalSchemas, options)
  const context = JSON.stringify([externalSchemas ?? null, options ?? null])
  return (route) => {
    const key = `${context}${JSON.stringify(route.schema)}`
    const known = compiled.get(key)
    if (known !== undefined) return known
    if (!pending.has(key)) pending.set(key, { build, route })
    let serializer: Serializer | undefined
    return (doc: unknown) => (serializer ??= serializerOf(key))(doc)
  }
}

type Schema = Record<string, unknown>
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value)
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean'])
const DATE_FORMATS = new Set(['date-time', 'date', 'time'])

/**
 * A union as fast-json-stringify can write it without validating the value against each option first.
 * For `anyOf`, the serializer runs a full JSON Schema validation (formats included) of the value against
 * one option after another to pick the one to write it by: for a page of twenty orders under
 * `anyOf: [page envelope, cursor envelope]`, a sixth of the App API's CPU per list (#44 item 5). Only the
 * serializer's copy changes; the document and the validators keep the union as written.
 * - options that are all one primitive type (an enumeration of literals) are written as that type (and
 *   date format, the one keyword the serializer writes by);
 * - a nullable value, `anyOf: [X, null]`, tests for null first (`if: {type: null}`), then writes X;
 * - objects that each have a required property none of the later options knows are told apart by it
 *   (`if: {required: [k]}`): the page envelope from the cursor envelope by `total`.
 * Any other union is left as it is.
 */
function cheapUnion (options: Schema[], siblings: Schema): Schema | null {
  // the serializer writes a string by its format only for dates and times (a Date as ISO 8601)
  const types = new Set(options.map((option) => option.type))
  const formats = new Set(options.map((option) => DATE_FORMATS.has(option.format as string) ? option.format : undefined))
  if (types.size === 1 && PRIMITIVES.has(options[0].type as string) && formats.size === 1) {
    const [format] = formats
    return { ...siblings, type: options[0].type, ...(format === undefined ? {} : { format }) }
  }
  const notNull = options.filter((option) => option.type !== 'null')
  if (notNull.length === 1 && options.length === 2) return { ...siblings, if: { type: 'null' }, then: { type: 'null' }, else: notNull[0] }
  if (options.length < 2 || !options.every((option) => option.type === 'object' && isSchema(option.properties))) return null
  let chain: Schema = options[options.length - 1]
  for (let i = options.length - 2; i >= 0; i--) {
    const later = options.slice(i + 1)
    const key = ((options[i].required ?? []) as string[]).find((name) => later.every((option) => !Object.hasOwn(option.properties as Schema, name)))
    if (key === undefined) return null
    chain = { if: { type: 'object', required: [key] }, then: options[i], else: chain }
  }
  return { ...siblings, ...chain }
}

/** A copy of `schema` with each union it holds written the cheap way where one is known (cheapUnion). */
export function withCheapUnions<T> (schema: T): T {
  if (Array.isArray(schema)) return schema.map(withCheapUnions) as T
  if (!isSchema(schema)) return schema
  const copy: Schema = {}
  for (const [name, value] of Object.entries(schema)) copy[name] = withCheapUnions(value)
  if (Array.isArray(copy.anyOf) && copy.anyOf.every(isSchema)) {
    const { anyOf, ...siblings } = copy
    return (cheapUnion(anyOf as Schema[], siblings) ?? copy) as T
  }
  return copy as T
}

/**
 * Compiles every validator and response serializer the apps built so far asked for and no request has
 * used yet; returns how many. A schema that cannot compile throws here, naming its route (a test builds
 * the app and calls this), as fastify's ready did before, rather than only on the first request to it.
 */
export function compilePendingSchemas (): number {
  const serializers = [...pending]
  for (const [key, { route }] of serializers) {
    try {
      serializerOf(key)
    } catch (error) {
      throw new Error(`${route.method} ${route.url}: the ${route.httpStatus} response schema does not compile: ${(error as Error).message}`)
    }
  }
  return serializers.length + compilePendingValidators()
}
