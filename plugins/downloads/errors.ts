import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the SDK and CLI downloads (DESIGN §22). */
export const ERROR_CODES = defineErrors({
  downloads_unavailable: 'A tarball could not be built from the workspace: the other routes are unaffected',
  download_not_found: 'No tarball of this name and version is served'
})

export const { httpError, notFound } = errorHelpers(ERROR_CODES)
