/**
 * Bulk exports (DESIGN §25): one request makes the platform write a whole list to a gzip JSON-lines
 * file; the app polls the export until it is COMPLETED, downloads the file from its signed link (no
 * token), checks it against the export's sha256 and sizeBytes, and reads it a line at a time.
 */
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { setTimeout as delay } from 'node:timers/promises'
import { createGunzip } from 'node:zlib'
import type { BulkExport } from './contract/bulk-exports.ts'
import type { FetchLike } from './types.ts'

export type { BulkExport, BulkExportStatus, BulkExportCreateBody } from './contract/bulk-exports.ts'
export { BULK_EXPORT_STATUSES, BULK_EXPORT_LINK_SECONDS, BULK_EXPORT_RETENTION_DAYS } from './contract/bulk-exports.ts'

/** The first wait between two polls of a running export, and the longest one it grows to. */
export const DEFAULT_POLL_INTERVAL_MS = 1000
export const DEFAULT_MAX_POLL_INTERVAL_MS = 10_000
const POLL_GROWTH = 1.5

export interface BulkExportOptions {
  /** Only records updated at or after this time (inclusive). Default: every record. */
  updatedSince?: string | Date
  /** Stops the polling, the download and the reading; the iteration then throws the signal's reason. */
  signal?: AbortSignal
  /** The first wait between polls (each poll is one request against the rate limit); it grows by half each time. Default 1 s. */
  pollIntervalMs?: number
  /** The longest wait between polls. Default 10 s. */
  maxPollIntervalMs?: number
  /** Where the downloaded file waits while it is checked and read (removed after). Default: the OS's temporary directory. */
  tempDir?: string
}

/** Why a bulk export gave no records: its `code` says which step failed. */
export type BulkExportErrorCode =
  /** 409: another export of this installation is still running (`exportId` names it when the platform said). */
  | 'bulk_export_running'
  /** The export ended FAILED; `message` is the platform's `error`. */
  | 'bulk_export_failed'
  /** The signed link answered something other than 200 (expired, tampered with, gone). */
  | 'download_failed'
  /** The downloaded bytes are not the file the export describes: sha256 or size differ. */
  | 'download_mismatch'
  /** The file's lines are not the export's rowCount records. */
  | 'row_count_mismatch'
  /** The file (as the export describes it) is not gzip JSON lines. */
  | 'file_invalid'

export class BulkExportError extends Error {
  readonly code: BulkExportErrorCode
  /** The export, when there is one (null for bulk_export_running without an id). */
  readonly exportId: string | null
  /** The export as last read, when it was. */
  readonly bulkExport: BulkExport | null
  constructor (code: BulkExportErrorCode, message: string, details: { exportId?: string | null, bulkExport?: BulkExport | null, cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'BulkExportError'
    this.code = code
    this.bulkExport = details.bulkExport ?? null
    this.exportId = details.exportId ?? this.bulkExport?.id ?? null
  }
}

/** Polls `read` until the export is no longer RUNNING, waiting longer each time; FAILED throws. */
export async function waitForBulkExport (read: () => Promise<BulkExport>, first: BulkExport, options: BulkExportOptions = {}): Promise<BulkExport> {
  let wait = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
  const longest = options.maxPollIntervalMs ?? DEFAULT_MAX_POLL_INTERVAL_MS
  let current = first
  while (current.status === 'RUNNING') {
    await delay(wait, undefined, { signal: options.signal })
    wait = Math.min(longest, Math.ceil(wait * POLL_GROWTH))
    current = await read()
  }
  if (current.status === 'FAILED') {
    throw new BulkExportError('bulk_export_failed', `bulk export ${current.id} failed: ${current.error ?? 'no reason given'}`, { bulkExport: current })
  }
  return current
}

/** Counts and hashes the bytes going through, and stops at the first byte past `sizeBytes`. */
function measuring (bulkExport: BulkExport, sizeBytes: number) {
  const hash = createHash('sha256')
  let size = 0
  const stream = new Transform({
    transform (chunk: Buffer, _encoding, callback) {
      size += chunk.length
      if (size > sizeBytes) {
        callback(new BulkExportError('download_mismatch', `bulk export ${bulkExport.id}: the download is larger than its ${sizeBytes} bytes`, { bulkExport }))
        return
      }
      hash.update(chunk)
      callback(null, chunk)
    }
  })
  return { stream, size: () => size, sha256: () => hash.digest('hex') }
}

/**
 * Downloads a COMPLETED export's file into `dir` and checks it: nothing is read from a file whose
 * sha256 or size is not the export's. No Authorization header: the link is signed.
 */
async function download (fetch: FetchLike, bulkExport: BulkExport, file: string, signal: AbortSignal | undefined): Promise<void> {
  const { url, sha256, sizeBytes } = bulkExport
  if (url === null || sha256 === null || sizeBytes === null) {
    throw new BulkExportError('download_failed', `bulk export ${bulkExport.id} is COMPLETED but has no url, sha256 or sizeBytes`, { bulkExport })
  }
  const response = await fetch(url, { method: 'GET', redirect: 'error', signal })
  if (response.status !== 200 || response.body === null) {
    // the platform's refusal names its code (bulk_export_link_invalid, bulk_export_link_expired, bulk_export_not_found)
    const code = await response.json().then((body: { code?: unknown }) => typeof body?.code === 'string' ? ` (${body.code})` : '', () => '')
    throw new BulkExportError('download_failed', `bulk export ${bulkExport.id}: the download link answered ${response.status}${code}`, { bulkExport })
  }
  const measured = measuring(bulkExport, sizeBytes)
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), measured.stream, createWriteStream(file, { mode: 0o600 }), { signal })
  if (measured.size() !== sizeBytes) {
    throw new BulkExportError('download_mismatch', `bulk export ${bulkExport.id}: downloaded ${measured.size()} bytes, the export says ${sizeBytes}`, { bulkExport })
  }
  const actual = measured.sha256()
  if (actual !== sha256) {
    throw new BulkExportError('download_mismatch', `bulk export ${bulkExport.id}: the download's sha256 is ${actual}, the export says ${sha256}`, { bulkExport })
  }
}

function parseLine<T> (bulkExport: BulkExport, line: string, number: number): T {
  try {
    return JSON.parse(line) as T
  } catch (error) {
    throw new BulkExportError('file_invalid', `bulk export ${bulkExport.id}: line ${number} is not JSON`, { bulkExport, cause: error })
  }
}

/**
 * The records of a COMPLETED export, parsed a line at a time from the gunzipped stream of its
 * checked file: memory holds one line, however large the export.
 */
export async function * readBulkExport<T> (fetch: FetchLike, bulkExport: BulkExport, options: Pick<BulkExportOptions, 'signal' | 'tempDir'> = {}): AsyncGenerator<T, void, undefined> {
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'bulk-export-'))
  try {
    const file = join(dir, `${bulkExport.id}.jsonl.gz`)
    await download(fetch, bulkExport, file, options.signal)
    const input = createReadStream(file, { signal: options.signal })
    const gunzipped = createGunzip()
    // pipe() does not pass a read error on: the lines below must end with it, not wait
    input.on('error', (error) => gunzipped.destroy(error))
    input.pipe(gunzipped)
    const lines = createInterface({ input: gunzipped, crlfDelay: Number.POSITIVE_INFINITY })
    let rows = 0
    try {
      for await (const line of lines) {
        if (line === '') continue
        rows += 1
        yield parseLine<T>(bulkExport, line, rows)
      }
    } catch (error) {
      // zlib's errors carry Z_* codes: bytes that match the export's sha256 but are no gzip
      if (typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('Z_')) {
        throw new BulkExportError('file_invalid', `bulk export ${bulkExport.id}: the file is not gzip (${(error as Error).message})`, { bulkExport, cause: error })
      }
      throw error
    } finally {
      lines.close()
      input.destroy()
      gunzipped.destroy()
    }
    if (bulkExport.rowCount !== null && rows !== bulkExport.rowCount) {
      throw new BulkExportError('row_count_mismatch', `bulk export ${bulkExport.id}: the file has ${rows} records, the export says ${bulkExport.rowCount}`, { bulkExport })
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * A bulk export under way, iterated for its records: the first `next()` creates the export, polls it
 * until it is COMPLETED, downloads and checks the file, then yields its records one by one.
 * `bulkExport` is the export as last read (its id once created, rowCount once COMPLETED).
 */
export class BulkExportRun<T> implements AsyncIterable<T> {
  #current: BulkExport | null = null
  #started = false
  readonly #create: () => Promise<BulkExport>
  readonly #read: (id: string) => Promise<BulkExport>
  readonly #fetch: FetchLike
  readonly #options: BulkExportOptions

  constructor (steps: { create: () => Promise<BulkExport>, read: (id: string) => Promise<BulkExport>, fetch: FetchLike }, options: BulkExportOptions) {
    this.#create = steps.create
    this.#read = steps.read
    this.#fetch = steps.fetch
    this.#options = options
  }

  /** The export as last read; null until it is created. */
  get bulkExport (): BulkExport | null { return this.#current }

  async * [Symbol.asyncIterator] (): AsyncGenerator<T, void, undefined> {
    if (this.#started) throw new Error('a bulk export is read once: call bulkExport() again for a new one')
    this.#started = true
    this.#options.signal?.throwIfAborted()
    this.#current = await this.#create()
    const id = this.#current.id
    this.#current = await waitForBulkExport(async () => (this.#current = await this.#read(id)), this.#current, this.#options)
    yield * readBulkExport<T>(this.#fetch, this.#current, this.#options)
  }
}
