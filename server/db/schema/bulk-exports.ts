import { pgTable, text, timestamp, integer, bigint, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { BULK_EXPORT_STATUSES, SYNC_RESOURCES } from '../../../sdk/src/contract/bulk-exports.ts'
import { businesses, bytea } from './commerce.ts'
import { installations } from './installations.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** An app's bulk export (DESIGN §25): one installation's records of one resource, as a gzip JSON-lines file. */
export const bulkExports = pgTable('bulk_exports', {
  id: text('id').primaryKey(),
  businessId: text('business_id').notNull().references(() => businesses.id, { onDelete: 'cascade' }),
  installationId: text('installation_id').notNull().references(() => installations.id, { onDelete: 'cascade' }),
  appId: text('app_id').notNull(),
  resource: text('resource', { enum: SYNC_RESOURCES }).notNull(),
  /** As the app gave it (ISO 8601, microseconds kept); the export compares it as a timestamptz. */
  updatedSince: text('updated_since'),
  /** The API version the file's records are shaped in: the request's, at creation. */
  apiVersion: text('api_version').notNull(),
  status: text('status', { enum: BULK_EXPORT_STATUSES }).notNull().default('RUNNING'),
  rowCount: integer('row_count'),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  sha256: text('sha256'),
  error: text('error'),
  /** Runs begun: a run interrupted by a dead process is begun again once, then FAILED. */
  attempts: integer('attempts').notNull().default(0),
  /** When a worker took the current run; null while it waits for one. */
  claimedAt: at('claimed_at'),
  createdAt: at('created_at').notNull().defaultNow(),
  finishedAt: at('finished_at')
}, (t) => [
  // one running export per installation: a second is 409 bulk_export_running
  uniqueIndex('bulk_exports_one_running_idx').on(t.installationId).where(sql`status = 'RUNNING'`),
  index('bulk_exports_running_idx').on(t.claimedAt).where(sql`status = 'RUNNING'`),
  index('bulk_exports_created_idx').on(t.createdAt)
])

/** The export's gzip file, in order: in the database, so every web process can serve the download. */
export const bulkExportChunks = pgTable('bulk_export_chunks', {
  exportId: text('export_id').notNull().references(() => bulkExports.id, { onDelete: 'cascade' }),
  seq: integer('seq').notNull(),
  data: bytea('data').notNull()
}, (t) => [primaryKey({ columns: [t.exportId, t.seq] })])
