import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { ErrorItemSchema, ErrorSchema } from '../schemas.ts'
import { shapeDocument, shapeRoute } from '../openapi-shape.ts'

export const API_TAGS = [
  { name: 'auth', description: 'Registration and sign-in for developers, merchants and reviewers' },
  { name: 'portal', description: "Developer portal: a developer's own apps, credentials, media, versions" },
  { name: 'manifest', description: 'Extension manifest: blocks, embeds, hooks, admin pages, settings schema' },
  { name: 'review', description: 'Review queue for reviewers' },
  { name: 'marketplace', description: 'Public listing of published apps' },
  { name: 'downloads', description: 'The SDK and CLI as npm tarballs, built from the platform\'s own sources (DESIGN §22)' },
  { name: 'oauth', description: 'OAuth 2.0 install: discovery (RFC 8414), consent, code exchange, revocation (RFC 7009); device authorization of the developer CLI (RFC 8628)' },
  { name: 'installations', description: "A merchant's installed apps: uninstall, re-consent, settings" },
  { name: 'app-api', description: 'The App API, called by apps with their access token (fbat_…)' },
  { name: 'api-versions', description: 'The dated API versions (App-Api-Version header), their status, sunsets and changes' },
  { name: 'webhooks', description: 'Webhook registrations of an installation, their delivery log, tests, redelivery and replay (access token)' },
  { name: 'bulk-exports', description: 'Big merchants (DESIGN §25): an installation\'s records of a resource as one gzip JSON-lines file (access token), downloaded from a signed link' },
  { name: 'billing', description: 'App billing (DESIGN §23): an app\'s subscriptions, purchases and usage (access token); the merchant\'s approvals, subscriptions and invoices' },
  { name: 'merchant', description: "The signed-in merchant's products, orders, reviews, pages, business and analytics" },
  { name: 'activity', description: 'The business\'s activity log (DESIGN §24): who changed its orders, products, reviews, pages, settings, apps and charges, and what changed; read only, apps cannot write it' },
  { name: 'storefront', description: 'Public storefront: pages, products, checkout, reviews' },
  { name: 'operations', description: 'Liveness, readiness and this document' }
]

/** OpenAPI 3.1 generated from the routes' TypeBox schemas; Swagger UI at /docs. */
export default fp(async function swaggerPlugin (fastify) {
  fastify.addSchema(ErrorItemSchema)
  fastify.addSchema(ErrorSchema)
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'App Platform API',
        version: '1.0.0',
        description: 'Developer portal, review, marketplace, OAuth installs, the App API, webhooks and storefront extensions. Errors always have the shape {statusCode, error, message} (ErrorBody). A path answers a method it does not have with 405 and Allow.'
      },
      servers: [{ url: fastify.config.baseUrl, description: 'BASE_URL: the API (App API, /webhooks, OAuth token and revocation)' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          developerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'JWT from POST /auth/login (developer, merchant or reviewer)' },
          appToken: { type: 'http', scheme: 'bearer', description: 'Installation access token, prefix fbat_' },
          clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret (fbcs_…) at the token exchange' }
        }
      }
    },
    transform: ({ schema, url, route }) => shapeRoute({ schema: schema as Record<string, any>, url, method: [route.method].flat()[0] }),
    transformObject: (document) => shapeDocument('openapiObject' in document ? document.openapiObject : {}, {
      storefrontUrl: fastify.origins.storefrontUrl, limits: { MAX_LINE_QUANTITY: fastify.config.checkoutRules.maxLineQuantity }
    }),
    // Shared schemas keep their $id as the component name (ErrorBody, …)
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}` }
  })
  await fastify.register(swaggerUi, {
    routePrefix: '/docs',
    // the plugin's own policy (its inline scripts by hash), never framed: /docs shares the API origin
    staticCSP: true,
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, '')
  })
  fastify.get('/openapi.json', { schema: { hide: true } }, async () => fastify.swagger())
}, { name: 'swagger', dependencies: ['config', 'origins'] })
