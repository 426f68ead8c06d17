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
    serializer = build(route)
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
