import fp from 'fastify-plugin'
import { PREFIX } from '../../server/api-prefixes.ts'
import type { CapabilityOptions } from '../../server/capability.ts'
import { startApiVersions, type ApiVersions, type ApiVersionsNeeds } from './service.ts'
import { appVersionRoutes, changelogRoutes, documentRoutes } from './routes.ts'

export type { ApiVersions, ApiVersionsNeeds }
// what app-api's routes use to answer in the request's version
export { answerInVersion } from './service.ts'
// the per-version OpenAPI documents, also written by openapi/generate.ts
export { versionedDocument } from './openapi.ts'

/**
 * API versions (issue #31): the registry as it stands (sunsets, current), the versioning of the
 * app-token scope (registerVersioning, used by app-api), the changelog and the console's per-app
 * versions with the upgrade.
 */
export default fp<CapabilityOptions<ApiVersionsNeeds, ApiVersions>>(async function apiVersionsCapability (fastify, { expose, ...needs }) {
  const apiVersions = startApiVersions(fastify, needs)
  expose(apiVersions)
  await fastify.register(changelogRoutes, { prefix: PREFIX.developerApiVersions, apiVersions })
  await fastify.register(appVersionRoutes, { prefix: PREFIX.developerApps, ...needs, apiVersions })
  await fastify.register(documentRoutes, { prefix: PREFIX.openapiVersions })
}, { name: 'api-versions' })
