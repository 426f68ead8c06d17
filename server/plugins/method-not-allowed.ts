import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods some route answers at this path (without the query), sorted; empty when none does. */
    allowedMethods: (url: string) => string[]
  }
}

/** `/developer/apps/:appId` as a pattern matching one concrete path; `*` matches the rest. */
export function routePattern (url: string): RegExp {
  const escaped = url.split('/').map((segment) => {
    if (segment === '*') return '.*'
    if (segment.startsWith(':')) return '[^/]+'
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  })
  return new RegExp(`^${escaped.join('/')}/?$`)
}

/**
 * RFC 9110 §15.5.6: a path that exists answers a method it does not have with 405 and `Allow`.
 * Registered before the capabilities, it hears every route added after it (an inherited onRoute
 * hook); the not-found handler asks `allowedMethods` before answering 404.
 */
export default fp(async function methodNotAllowed (fastify) {
  const routes = new Map<string, { pattern: RegExp, methods: Set<string> }>()
  fastify.addHook('onRoute', (route) => {
    const entry = routes.get(route.url) ?? { pattern: routePattern(route.url), methods: new Set<string>() }
    for (const method of [route.method].flat()) entry.methods.add(method)
    if (entry.methods.has('GET')) entry.methods.add('HEAD')
    routes.set(route.url, entry)
  })
  fastify.decorate('allowedMethods', (url: string) => {
    const path = url.split('?')[0]
    const allowed = new Set<string>()
    for (const { pattern, methods } of routes.values()) {
      if (pattern.test(path)) for (const method of methods) allowed.add(method)
    }
    return [...allowed].sort()
  })
}, { name: 'method-not-allowed' })
