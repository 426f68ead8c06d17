import { createHash } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { rows } from '../../../server/db/rows.ts'
import type { App } from '../../../server/app.ts'
import { call, type Installed } from '../app-api/fixtures.ts'
import { until } from '../../wait.ts'

export interface ExportAnswer {
  id: string
  status: 'RUNNING' | 'COMPLETED' | 'FAILED'
  resource: string
  rowCount: number | null
  sizeBytes: number | null
  sha256: string | null
  url: string | null
  expiresAt: string | null
  error: string | null
  apiVersion: string
  [key: string]: unknown
}

/** Creates an export of `resource` for the installation and answers the 202's body. */
export async function startExport (app: App, installed: Installed, body: Record<string, unknown>): Promise<ExportAnswer> {
  const response = await call(app, installed, 'POST', '/app-api/bulk-exports', body)
  if (response.statusCode !== 202) throw new Error(`export not created: ${response.statusCode} ${response.body}`)
  return response.json()
}

/**
 * The export once it has ended (the worker's job runs it), as the App API answers: the wait reads the
 * database, so that it spends none of the installation's 60 requests a minute.
 */
export async function finishedExport (app: App, installed: Installed, id: string): Promise<ExportAnswer> {
  await until(async () => (await rows(app.db, sql<{ status: string }>`select status from bulk_exports where id = ${id}`))[0]?.status,
    (status) => status !== 'RUNNING')
  return (await call(app, installed, 'GET', `/app-api/bulk-exports/${id}`)).json() as ExportAnswer
}

/** The path and query of a signed link (tests call the app with inject). */
export const pathOf = (url: string): string => { const parsed = new URL(url); return `${parsed.pathname}${parsed.search}` }

/** Downloads a COMPLETED export's file and reads it: its bytes' size and SHA-256, and its records. */
export async function download (app: App, exported: ExportAnswer) {
  const response = await app.inject({ method: 'GET', url: pathOf(exported.url as string) })
  if (response.statusCode !== 200) throw new Error(`download: ${response.statusCode} ${response.body}`)
  const bytes = response.rawPayload
  const text = gunzipSync(bytes).toString('utf8')
  return {
    response,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    lines: text === '' ? [] : text.replace(/\n$/, '').split('\n').map((line) => JSON.parse(line) as Record<string, any>),
    endsWithNewline: text === '' || text.endsWith('\n')
  }
}
