import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of API versions (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  api_version_not_found: 'No OpenAPI document for that API version (GET /openapi/{version}.json)',
  api_version_unsupported: 'The App-Api-Version header (or an upgrade) names an unknown or sunset API version; supportedVersions lists the ones accepted'
})

export const { badRequest, notFound } = errorHelpers(ERROR_CODES)
