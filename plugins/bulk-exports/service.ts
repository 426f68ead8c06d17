import { createHash, createHmac } from 'node:crypto'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { BULK_EXPORT_LINK_SECONDS, BULK_EXPORT_RETENTION_DAYS, type BulkExport, type BulkExportCreateBody } from '../../sdk/src/contract/bulk-exports.ts'
import { downgrade, present, showsAsRecorded, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { databaseNow, databaseNowMinus, type Clock } from '../../server/clock.ts'
import { safeEqual } from '../../server/crypto.ts'
import { txExecutor, type Db, type Tx } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { deleteInBatches, isUniqueViolation } from '../../server/db/rows.ts'
import { bulkExportChunks, bulkExports } from '../../server/db/schema/index.ts'
import { emitEvent } from '../../server/events.ts'
import type { Jobs } from '../../server/jobs.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Installations } from '../installations/index.ts'
import { conflict, forbidden, notFound } from './errors.ts'

export type BulkExportRow = typeof bulkExports.$inferSelect

/** The export job (one per export), the minute's sweep of interrupted runs and the hourly prune. */
export const BULK_EXPORT_JOB = 'bulk-export.run'
export const BULK_EXPORT_SWEEP_JOB = 'bulk-export.sweep'
export const BULK_EXPORT_PRUNE_JOB = 'bulk-export.prune'
/** The stored file's pieces: one row each, so that neither the writer nor a download holds more. */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024
/** A run interrupted by a process that stopped is begun again this many times in all, then FAILED. */
const MAX_ATTEMPTS = 2
/** A claimed run is left alone this long before the sweep asks whether its process still holds it. */
const SWEEP_GRACE_SECONDS = 10
/** gzip's level: 3 of 9 writes a million orders a few times faster than the default for a file about a tenth larger. */
const GZIP_LEVEL = 3

/** The caller: the installation whose token made the request, and the version it speaks. */
export interface ExportCaller { id: string, appId: string, businessId: string, scopes: string[] }

export interface BulkExportsContext {
  db: Db
  clock: Clock
  jobs: Pick<Jobs, 'ensureQueue' | 'boss'>
  log: FastifyBaseLogger
  commerce: Pick<Commerce, 'exportRecords' | 'getBusinessProfile' | 'parseUpdatedSince'>
  /** The links' origin (BASE_URL). */
  baseUrl: () => string
  /** The key the download links are signed with (derived from ENCRYPTION_KEY). */
  linkKey: Buffer
  settleSeconds: number
  timeoutSeconds: number
  chunkBytes: number
}

const iso = (value: Date | null): string | null => value === null ? null : value.toISOString()

/** The advisory lock a run holds for its whole transaction: a sweep that can take it knows the run's process is gone. */
const runLock = (id: string) => sql`hashtext('bulk_export'), hashtext(${id})`

export function createBulkExports (context: BulkExportsContext) {
  const { db } = context

  function signature (id: string, expires: number): string {
    return createHmac('sha256', context.linkKey).update(`${id}.${expires}`).digest('hex')
  }

  /** The export as the App API shows it: a COMPLETED one with a fresh link, valid an hour. */
  function presentExport (row: BulkExportRow): BulkExport {
    const completed = row.status === 'COMPLETED'
    const expires = Math.floor(context.clock.now().getTime() / 1000) + BULK_EXPORT_LINK_SECONDS
    return {
      id: row.id,
      status: row.status,
      resource: row.resource,
      updatedSince: row.updatedSince,
      apiVersion: row.apiVersion as ApiVersion,
      createdAt: row.createdAt.toISOString(),
      finishedAt: iso(row.finishedAt),
      rowCount: row.rowCount,
      sizeBytes: row.sizeBytes,
      sha256: row.sha256,
      url: completed ? `${context.baseUrl()}/bulk-exports/${row.id}/download?expires=${expires}&signature=${signature(row.id, expires)}` : null,
      expiresAt: completed ? new Date(expires * 1000).toISOString() : null,
      error: row.error
    }
  }

  async function ofInstallation (caller: ExportCaller, id: string): Promise<BulkExportRow> {
    const [row] = await db.select().from(bulkExports).where(and(eq(bulkExports.id, id), eq(bulkExports.installationId, caller.id))).limit(1)
    if (row === undefined) throw notFound('bulk_export_not_found', 'Bulk export')
    return row
  }

  /** Ends a run as FAILED with what went wrong, and tells the app. */
  async function fail (row: BulkExportRow, error: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [failed] = await tx.update(bulkExports).set({ status: 'FAILED', error, finishedAt: databaseNow() })
        .where(and(eq(bulkExports.id, row.id), eq(bulkExports.status, 'RUNNING'))).returning()
      if (failed !== undefined) await finished(tx, failed)
    })
  }

  async function finished (tx: Tx, row: BulkExportRow): Promise<void> {
    await emitEvent(tx, {
      businessId: row.businessId,
      installationId: row.installationId,
      event: 'bulk_export.finished',
      data: { exportId: row.id, resource: row.resource, status: row.status, rowCount: row.rowCount }
    })
  }

  /**
   * One run of an export, in one transaction: the records from a database cursor, one JSON line each
   * in the export's API version, through gzip into the file's pieces, then COMPLETED with the file's
   * size, SHA-256 and line count and bulk_export.finished. Anything failing rolls the pieces back with
   * the rest: a FAILED export leaves no partial file.
   */
  async function execute (row: BulkExportRow): Promise<void> {
    const deadline = performance.now() + context.timeoutSeconds * 1000
    const version = row.apiVersion as ApiVersion
    const shape = row.resource === 'products' ? 'Product' : row.resource === 'orders' ? 'Order' : 'Review'
    const currency = (await context.commerce.getBusinessProfile(row.businessId)).currency
    // the App API list's record in the export's version: as recorded where no release changed it
    const asRecorded = showsAsRecorded(shape, version)
    const line = (record: object) => JSON.stringify(asRecorded
      ? record
      : downgrade(shape, present(shape, record, { currency: (record as { currency?: string }).currency ?? currency }), version)) + '\n'
    try {
      const ran = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${runLock(row.id)})`)
        // a sweep that found this run between its claim and its lock has queued another: the first to lock runs
        const [current] = await tx.select({ status: bulkExports.status }).from(bulkExports).where(eq(bulkExports.id, row.id)).for('update')
        if (current?.status !== 'RUNNING') return false
        const hash = createHash('sha256')
        let size = 0
        let rows = 0
        let seq = 0
        let pending: Buffer[] = []
        let pendingBytes = 0
        const flush = async () => {
          if (pendingBytes === 0) return
          const data = Buffer.concat(pending, pendingBytes)
          pending = []
          pendingBytes = 0
          await tx.insert(bulkExportChunks).values({ exportId: row.id, seq: seq++, data })
        }
        const records = context.commerce.exportRecords(tx, {
          businessId: row.businessId, resource: row.resource, updatedSince: row.updatedSince, settleSeconds: context.settleSeconds
        })
        await pipeline(
          Readable.from((async function * lines () {
            for await (const batch of records) {
              if (performance.now() > deadline) throw new ExportTimeout(context.timeoutSeconds)
              rows += batch.length
              yield batch.map(line).join('')
            }
          })()),
          createGzip({ level: GZIP_LEVEL }),
          async function store (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              hash.update(chunk)
              size += chunk.length
              pending.push(chunk)
              pendingBytes += chunk.length
              if (pendingBytes >= context.chunkBytes) await flush()
            }
            await flush()
          }
        )
        const [done] = await tx.update(bulkExports).set({ status: 'COMPLETED', rowCount: rows, sizeBytes: size, sha256: hash.digest('hex'), finishedAt: databaseNow() })
          .where(eq(bulkExports.id, row.id)).returning()
        await finished(tx, done)
        return true
      })
      if (ran) context.log.info({ exportId: row.id, resource: row.resource }, 'bulk export completed')
    } catch (error) {
      const message = error instanceof ExportTimeout ? error.message : 'The export failed on the server; create it again (the failure is in the platform\'s log)'
      context.log.error({ err: error, exportId: row.id }, 'bulk export failed')
      await fail(row, message)
    }
  }

  /** Takes the export's next run (none when another process has it or it has ended) and runs it. */
  async function run (id: string): Promise<void> {
    const [claimed] = await db.update(bulkExports).set({ claimedAt: databaseNow(), attempts: sql`${bulkExports.attempts} + 1` })
      .where(and(eq(bulkExports.id, id), eq(bulkExports.status, 'RUNNING'), isNull(bulkExports.claimedAt))).returning()
    if (claimed !== undefined) await execute(claimed)
  }

  async function enqueue (tx: Tx, id: string): Promise<void> {
    await context.jobs.ensureQueue(BULK_EXPORT_JOB)
    // in the export's own transaction: a RUNNING export always has its job
    await context.jobs.boss.send(BULK_EXPORT_JOB, { exportId: id }, { retryLimit: 0, expireInSeconds: context.timeoutSeconds + 60, db: txExecutor(tx) })
  }

  return {
    /** App API: a new export of the caller's records, RUNNING; 409 while another of the installation's runs. */
    async create (caller: ExportCaller, version: ApiVersion, body: BulkExportCreateBody): Promise<BulkExport> {
      const updatedSince = body.updatedSince === undefined ? null : context.commerce.parseUpdatedSince(body.updatedSince)
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx.insert(bulkExports).values({
            id: newId('bex'),
            businessId: caller.businessId,
            installationId: caller.id,
            appId: caller.appId,
            resource: body.resource,
            updatedSince,
            apiVersion: version
          }).returning()
          await enqueue(tx, created.id)
          return created
        })
        return presentExport(row)
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('bulk_export_running', 'An export of this installation is RUNNING: wait for its bulk_export.finished, then create the next')
        throw error
      }
    },

    get: async (caller: ExportCaller, id: string): Promise<BulkExport> => presentExport(await ofInstallation(caller, id)),

    /**
     * The file behind a signed link: 403 when the signature is missing or wrong or the link has
     * expired, 404 when the export is gone or not COMPLETED. Its pieces are read one at a time.
     */
    async download (id: string, expires: string | undefined, given: string | undefined): Promise<{ row: BulkExportRow, body: Readable }> {
      const at = expires !== undefined && /^\d{1,12}$/.test(expires) ? Number(expires) : null
      if (at === null || given === undefined || !safeEqual(given.toLowerCase(), signature(id, at))) {
        throw forbidden('bulk_export_link_invalid', 'The link\'s signature is missing or does not match: use the export\'s url as it is')
      }
      if (at * 1000 < context.clock.now().getTime()) throw forbidden('bulk_export_link_expired', 'The link has expired: GET the export again for a fresh url')
      const [row] = await db.select().from(bulkExports).where(and(eq(bulkExports.id, id), eq(bulkExports.status, 'COMPLETED'))).limit(1)
      if (row === undefined) throw notFound('bulk_export_not_found', 'Bulk export')
      const body = Readable.from((async function * pieces () {
        for (let seq = 0; ; seq++) {
          const [piece] = await db.select({ data: bulkExportChunks.data }).from(bulkExportChunks)
            .where(and(eq(bulkExportChunks.exportId, id), eq(bulkExportChunks.seq, seq))).limit(1)
          if (piece === undefined) return
          yield piece.data
        }
      })())
      return { row, body }
    },

    run,

    /**
     * Runs whose process stopped (killed, crashed, restarted): claimed a while ago, and their advisory
     * lock free. Each is begun again, or FAILED once it has been begun MAX_ATTEMPTS times. On workers at
     * start and every minute; returns how many it found.
     */
    async sweep (graceSeconds = SWEEP_GRACE_SECONDS): Promise<number> {
      const claimed = await db.select().from(bulkExports)
        .where(and(eq(bulkExports.status, 'RUNNING'), lt(bulkExports.claimedAt, databaseNowMinus({ seconds: graceSeconds }))))
        .orderBy(asc(bulkExports.claimedAt)).limit(100)
      let found = 0
      for (const row of claimed) {
        const orphan = await db.transaction(async (tx) => {
          const [{ free }] = (await tx.execute(sql`select pg_try_advisory_xact_lock(${runLock(row.id)}) as free`) as unknown as { rows: Array<{ free: boolean }> }).rows
          if (!free) return false
          if (row.attempts >= MAX_ATTEMPTS) return true
          // holding the run's lock: no process runs it now; a runner that claimed it a moment ago waits for this
          // transaction, then finds it claimed again and leaves it to whichever locks first (execute)
          const [again] = await tx.update(bulkExports).set({ claimedAt: null })
            .where(and(eq(bulkExports.id, row.id), eq(bulkExports.status, 'RUNNING'), isNotNull(bulkExports.claimedAt))).returning()
          if (again !== undefined) await enqueue(tx, row.id)
          return again !== undefined
        })
        if (!orphan) continue
        found++
        if (row.attempts >= MAX_ATTEMPTS) await fail(row, `The export was interrupted ${row.attempts} times (the process running it stopped); create it again`)
        context.log.warn({ exportId: row.id, attempts: row.attempts }, 'bulk export: an interrupted run found')
      }
      return found
    },

    /** Exports (and their files) older than BULK_EXPORT_RETENTION_DAYS; returns how many went. */
    prune: async (): Promise<number> => await deleteInBatches(db, 'bulk_exports', 'id',
      lt(bulkExports.createdAt, databaseNowMinus({ days: BULK_EXPORT_RETENTION_DAYS })), 100),

    /** An uninstall takes the installation's exports with it. */
    forgetInstallation: async (tx: Tx, installationId: string): Promise<void> => {
      await tx.delete(bulkExports).where(eq(bulkExports.installationId, installationId))
    }
  }
}

class ExportTimeout extends Error {
  constructor (seconds: number) {
    super(`The export ran longer than ${seconds} seconds (BULK_EXPORT_TIMEOUT_SECONDS); narrow it with updatedSince`)
  }
}

export type BulkExports = ReturnType<typeof createBulkExports>

/** What bulk exports need of the others: the records (commerce's cursor), and the uninstalls to follow. */
export interface BulkExportsNeeds {
  commerce: BulkExportsContext['commerce']
  installations: Pick<Installations, 'onUninstalling'>
}

/** Bulk exports over the server's database, with the runs, the sweep and the prune on worker processes. */
export async function startBulkExports (fastify: FastifyInstance, { commerce, installations }: BulkExportsNeeds): Promise<BulkExports> {
  const bulkExports = createBulkExports({
    db: fastify.db,
    clock: fastify.clock,
    jobs: fastify.jobs,
    log: fastify.log,
    commerce,
    baseUrl: () => fastify.origins.baseUrl,
    linkKey: createHmac('sha256', fastify.config.encryptionKey).update('bulk-export-links').digest(),
    settleSeconds: fastify.config.syncSettleSeconds,
    timeoutSeconds: fastify.config.bulkExportTimeoutSeconds,
    chunkBytes: fastify.config.bulkExportChunkBytes
  })
  installations.onUninstalling.push(async (tx, installation) => { await bulkExports.forgetInstallation(tx, installation.id) })
  await fastify.jobs.ensureQueue(BULK_EXPORT_JOB)
  if (fastify.config.processRole !== 'web') {
    // two at a time per worker: one long export does not hold back another installation's
    await fastify.jobs.work<{ exportId: string }>(BULK_EXPORT_JOB, async (job) => { await bulkExports.run(job.data.exportId) }, { teamConcurrency: 2 })
    await fastify.jobs.work(BULK_EXPORT_SWEEP_JOB, async () => { await bulkExports.sweep() })
    await fastify.jobs.work(BULK_EXPORT_PRUNE_JOB, async () => {
      const pruned = await bulkExports.prune()
      if (pruned > 0) fastify.log.info({ pruned }, 'bulk exports: old files pruned')
    })
    await fastify.jobs.boss.schedule(BULK_EXPORT_SWEEP_JOB, '* * * * *')
    await fastify.jobs.boss.schedule(BULK_EXPORT_PRUNE_JOB, '17 * * * *')
    // a run this process's predecessor left behind is begun again at once, not a minute later
    fastify.addHook('onReady', async () => { await bulkExports.sweep(0) })
  }
  return bulkExports
}
