import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import apiVersionsService from './service.ts'
import { appVersionRoutes, changelogRoutes, documentRoutes } from './routes.ts'

// what app-api puts around its app-token scope
export { answerInVersion, registerVersioning } from './service.ts'
// the per-version OpenAPI documents, also written by openapi/generate.ts
export { versionedDocument } from './openapi.ts'

/**
 * API versions (issue #31): the registry as it stands (sunsets, current), the versioning of the
 * app-token scope (registerVersioning, used by app-api), the changelog and the console's per-app
 * versions with the upgrade.
 */
export default fp(async function apiVersionsCapability (fastify) {
  await fastify.register(apiVersionsService)
  await fastify.register(changelogRoutes, { prefix: PREFIX.developerApiVersions })
  await fastify.register(appVersionRoutes, { prefix: PREFIX.developerApps })
  await fastify.register(documentRoutes, { prefix: PREFIX.openapiVersions })
}, { name: 'api-versions-capability', dependencies: ['auth-guards'] })
