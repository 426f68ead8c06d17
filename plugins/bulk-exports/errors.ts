import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of bulk exports (DESIGN §21, §25). */
export const ERROR_CODES = defineErrors({
  bulk_export_running: 'The installation has an export RUNNING already: wait for its bulk_export.finished (one runs at a time)',
  bulk_export_not_found: 'No export with this id for the installation (another installation\'s, or pruned after 7 days)',
  bulk_export_link_invalid: 'The download link\'s signature is missing or does not match: use the `url` of GET /app-api/bulk-exports/{id} as it is',
  bulk_export_link_expired: 'The download link is past its `expiresAt`: GET /app-api/bulk-exports/{id} gives a fresh one'
})

export const { conflict, forbidden, notFound } = errorHelpers(ERROR_CODES)
