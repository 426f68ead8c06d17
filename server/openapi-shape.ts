/**
 * What the OpenAPI document adds to the routes' own schemas, so a generated client is a good one:
 * one path form (no trailing slash), the role behind each JWT route, the App API's rate-limit
 * headers, the clamping of `limit`, and a named component for every schema with a `title`.
 * Only the document changes: validation keeps using the route schemas as they are.
 */

import { errorResponses } from './schemas.ts'

type Json = Record<string, any>

/** Which session role a JWT route needs, by path prefix (first match wins). */
const ROLES: Array<[prefix: string, role: string]> = [
  ['/developer/', 'DEVELOPER (own apps only; another developer’s app is a 404)'],
  ['/review/', 'REVIEWER'],
  ['/merchant/', 'MERCHANT (own business only), or a DEVELOPER acting on their sandbox business'],
  ['/oauth/authorize', 'MERCHANT (installs on their business) or DEVELOPER (test-installs their own app on their sandbox)'],
  ['/auth/', 'any signed-in user']
]

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed per minute for this installation (RATE_LIMIT_PER_MINUTE)' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix time (seconds) when the window resets' }
}
const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying' } }

const usesScheme = (schema: Json, scheme: string): boolean =>
  Array.isArray(schema.security) && schema.security.some((requirement: Json) => scheme in requirement)

/**
 * Answers every route can give besides its own, in the error format: 400 (a NUL character anywhere,
 * a malformed URL, a path parameter longer than its schema allows), 404 where the path names a
 * record, 415 wherever a body of another content type can be refused (every method that takes a body).
 */
function implicitErrors (schema: Json, url: string, method: string): Json {
  const errors: number[] = [400]
  // 414: a path parameter past the router's own limit (8 KB), which never reaches the route
  if (url.includes('/:')) errors.push(404, 414)
  if (!['GET', 'HEAD', 'DELETE'].includes(method)) errors.push(415)
  return errorResponses(...errors)
}

/** Per route (fastify-swagger `transform`). */
export function shapeRoute ({ schema, url, method = 'GET' }: { schema: Json | undefined, url: string, method?: string }): { schema: Json, url: string } {
  const shaped: Json = { ...(schema ?? {}) }
  if (usesScheme(shaped, 'developerJwt')) {
    const role = ROLES.find(([prefix]) => url.startsWith(prefix))?.[1]
    if (role !== undefined) shaped.description = [shaped.description, `Role: ${role}.`].filter(Boolean).join('\n\n')
  }
  if (shaped.response !== undefined) shaped.response = { ...implicitErrors(shaped, url, method), ...shaped.response }
  if (usesScheme(shaped, 'appToken') && shaped.response !== undefined) {
    // every authenticated answer of /app-api and /webhooks carries the installation's budget (docs/decisions.md, App API)
    const responses: Json = {}
    for (const [status, response] of Object.entries<Json>(shaped.response)) {
      responses[status] = status === '401' ? response : { ...response, headers: { ...RATE_LIMIT_HEADERS, ...(status === '429' ? RETRY_AFTER : {}) } }
    }
    shaped.response = responses
  }
  return { schema: shaped, url: url.length > 1 ? url.replace(/\/+$/, '') : url }
}

const isSchemaNode = (node: Json): boolean =>
  ['type', 'properties', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', 'items'].some((key) => key in node)

/** Equal but for examples: fastify-swagger moves the examples of a whole body to its media type. */
function sameSchema (a: Json, b: Json): boolean {
  const { examples: _a, ...restA } = a
  const { examples: _b, ...restB } = b
  return JSON.stringify(restA) === JSON.stringify(restB)
}

/**
 * STOREFRONT_URL as OpenAPI servers. A `{store}` host template gives two: the bare host first (every
 * store's customer API answers there, and any client resolves it), then the store's own host with a
 * server variable (what the store's pages call).
 */
export function storefrontServers (storefrontUrl: string): Json[] {
  if (!storefrontUrl.includes('{store}')) return [{ url: storefrontUrl, description: 'STOREFRONT_URL: the storefront origin, where the customer API answers' }]
  return [
    { url: storefrontUrl.replace('{store}.', ''), description: "The storefront's bare host (STOREFRONT_URL without its {store} label): every store's customer API answers here" },
    { url: storefrontUrl, description: "STOREFRONT_URL: the store's own host, which answers its pages and its customer API", variables: { store: { default: 'demo-store', description: "The store's slug (its own host)" } } }
  ]
}

/**
 * The whole document (fastify-swagger `transformObject`): `clampedMaximum` (a limit the server clamps
 * rather than refuses) becomes the `x-clamped-maximum` extension, not `maximum`, `configuredMaximum` (a setting's name) the
 * `maximum` the running server enforces (options.limits), `documentedAs` (a value the handler validates itself, to
 * report every problem at once) shows that schema, and every schema with a `title` becomes
 * `#/components/schemas/<title>`. Two different schemas under one title are a programming error.
 */
export function shapeDocument (document: Json, options: { storefrontUrl?: string, limits?: Record<string, number> } = {}): Json {
  const components: Json = document.components?.schemas ?? {}
  const visit = (node: unknown, inComponent: string | null): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, null))
    if (node === null || typeof node !== 'object') return node
    const out: Json = {}
    for (const [key, value] of Object.entries(node)) {
      // examples hold data, not schemas
      out[key] = key === 'examples' || key === 'example' ? value : visit(value, null)
    }
    if (out.documentedAs !== undefined) return visit({ ...out.documentedAs, description: out.description }, null)
    if (typeof out.configuredMaximum === 'string') {
      // a limit the operator configures (MAX_LINE_QUANTITY): the document says the running server's value
      const limit = options.limits?.[out.configuredMaximum]
      if (limit !== undefined) out.maximum = limit
      delete out.configuredMaximum
    }
    if (typeof out.clampedMaximum === 'number') {
      // not `maximum`: a larger value is valid input, answered with this many (DESIGN §5)
      out['x-clamped-maximum'] = out.clampedMaximum
      delete out.clampedMaximum
    }
    const title = out.title
    // a title may end in an API version (`Order_2026-12`: the newest version's own resource, apart from the merchant's `Order`)
    if (typeof title === 'string' && /^[A-Z][A-Za-z0-9]*(_\d{4}-\d{2})?$/.test(title) && isSchemaNode(out) && title !== inComponent) {
      const existing = components[title]
      if (existing !== undefined && !sameSchema(existing, out)) {
        throw new Error(`OpenAPI: two different schemas are titled ${title}; give one another title`)
      }
      if (existing?.examples === undefined) components[title] = out
      return { $ref: `#/components/schemas/${title}` }
    }
    return out
  }
  const paths = visit(document.paths, null) as Json
  // the customer API answers on the storefront's origin; the API origin answers it with a 308
  if (options.storefrontUrl !== undefined) {
    const servers = storefrontServers(options.storefrontUrl)
    for (const [path, item] of Object.entries<Json>(paths ?? {})) if (path.startsWith('/store/')) paths[path] = { servers, ...item }
  }
  for (const [name, schema] of Object.entries(components)) components[name] = visit(schema, name)
  const sorted = Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)))
  return { ...document, paths, components: { ...document.components, schemas: sorted } }
}
