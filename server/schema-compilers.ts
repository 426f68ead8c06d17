import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>
type Serializer = (doc: unknown) => string

/**
 * Response serializers compiled once per process for each schema shape, and shared by every app the
 * process builds (fastify's own factory compiles each route's anew for each instance). A serializer
 * depends only on its schema, the instance's shared schemas (`addSchema`) and the serializer options,
 * so those, as JSON, are its key: the same shape built again (the test suite builds hundreds of apps
 * per process, where compiling the responses was a fifth of each build's CPU) reuses the function.
 */
const compiled = new Map<string, Serializer>()
const fastJsonStringify: SerializerFactory = SerializerSelector()

export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const build = fastJsonStringify(externalSchemas, options)
  const context = JSON.stringify([externalSchemas ?? null, options ?? null])
  return (route) => {
    const key = `${context}${JSON.stringify(route.schema)}`
    let serializer = compiled.get(key)
    if (serializer === undefined) {
      serializer = build(route)
      compiled.set(key, serializer)
    }
    return serializer
  }
}
