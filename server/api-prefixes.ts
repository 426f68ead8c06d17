/**
 * The one table of API prefixes: server/app.ts mounts the capabilities at PREFIX, the SPA fallback
 * (server/plugins/spa.ts) never answers under API_ROOTS, and the Vite dev server (vite.config.ts)
 * forwards the roots marked devProxy to the API. Free of server code: vite.config.ts imports it.
 * docs/architecture.md lists which capability folder serves each resource prefix.
 */
export const PREFIX = {
  auth: '/auth',
  developerApps: '/developer/apps',
  developerCliTokens: '/developer/cli-tokens',
  developerApiVersions: '/developer/api-versions',
  openapiVersions: '/openapi',
  review: '/review',
  marketplace: '/marketplace',
  oauth: '/oauth',
  media: '/media',
  sampleMedia: '/media/samples',
  productMedia: '/media/products',
  merchant: '/merchant',
  merchantInstallations: '/merchant/installations',
  appApi: '/app-api',
  webhooks: '/webhooks',
  store: '/store',
  wellKnown: '/.well-known',
  downloads: '/downloads',
  bulkExports: '/bulk-exports'
} as const

/**
 * Paths that belong to the API (DESIGN §6): an unknown one is a JSON 404, never the SPA. The storefront
 * (`/store`) and the operator pages live on other origins or are not proxied in development.
 */
export const API_ROOTS: ReadonlyArray<{ path: string, devProxy: boolean }> = [
  { path: PREFIX.auth, devProxy: true },
  { path: '/developer', devProxy: true },
  { path: PREFIX.review, devProxy: true },
  { path: PREFIX.marketplace, devProxy: true },
  { path: PREFIX.merchant, devProxy: true },
  { path: PREFIX.appApi, devProxy: true },
  { path: PREFIX.webhooks, devProxy: true },
  { path: PREFIX.store, devProxy: false },
  // the rest of /oauth is the SPA's consent screen
  { path: `${PREFIX.oauth}/token`, devProxy: true },
  { path: `${PREFIX.oauth}/revoke`, devProxy: true },
  { path: `${PREFIX.oauth}/authorize/info`, devProxy: true },
  { path: `${PREFIX.oauth}/device_authorization`, devProxy: true },
  { path: `${PREFIX.oauth}/device`, devProxy: true },
  { path: '/docs', devProxy: false },
  // RFC 8615: nothing under /.well-known is a client-side route
  { path: PREFIX.wellKnown, devProxy: true },
  { path: PREFIX.media, devProxy: true },
  // the SDK and CLI tarballs (DESIGN §22)
  { path: PREFIX.downloads, devProxy: true },
  // bulk export files behind their signed links (DESIGN §25)
  { path: PREFIX.bulkExports, devProxy: true },
  { path: '/health', devProxy: false },
  { path: '/ready', devProxy: false },
  { path: '/metrics', devProxy: false },
  { path: '/openapi.json', devProxy: false },
  // each API version's document: /openapi/2026-12.json
  { path: PREFIX.openapiVersions, devProxy: false }
]

/** The Vite dev proxy's path pattern. */
export const DEV_PROXY_PATTERN = `^/(${API_ROOTS.filter((root) => root.devProxy).map((root) => root.path.slice(1).replace(/\./g, '\\.')).join('|')})`
