import { sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import type { Db } from '../../server/db/client.ts'
import { txExecutor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { decryptSecret } from '../../server/crypto.ts'
import type { Jobs } from '../../server/jobs.ts'
import { outboxDispatch } from '../../server/events.ts'
import { inSpan, SpanKind, SpanStatusCode } from '../../server/telemetry.ts'
import { deliveryHeaders, envelopeBody } from './signing.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import { DOMAIN_API_VERSION, downgrade, isApiVersion, present, shapeChanges, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { Sender, SendResult } from './sender.ts'
import type { Clock } from '../../server/clock.ts'

/** pg-boss queue of retries: each job asks for one due attempt of one delivery. */
export const DELIVER_JOB = 'webhooks.deliver'
/** A lease outlives the attempt (timeout) by this much, covering the bookkeeping around it. */
export const LEASE_MARGIN_MS = 5000
const DATA_ERASURE = 'business.data_erasure'

export interface DeliveryDeps {
  db: Db
  /** Signature timestamps; the retry schedule is the database's time (docs/decisions.md). */
  clock: Clock
  jobs: Jobs
  sender: Sender
  encryptionKey: Buffer
  timeoutMs: number
  retryScheduleSeconds: number[]
  disableAfterFailures: number
  onDisabled: (webhookId: string, reason: string) => void
  /** After each recorded attempt (analytics counters, the console's live tail); must not throw. */
  onAttempt: (outcome: AttemptOutcome) => void
  /** A success written in the background that could not be (the delivery is sent again later); must not throw. */
  onWriteError: (error: unknown) => void
  /** The developer's `listen` session (DESIGN §19): takes the attempt instead of the network while connected; null when not. */
  relay?: (claimed: Claimed, rawBody: string, headers: Record<string, string>) => Promise<SendResult | null>
  /** The business's currency, for the API versions whose money objects name it (order and product events carry none). */
  currencyOf: (businessId: string) => Promise<string>
}

/** Successes waiting for their group write at most before attempts wait for theirs (memory bound when the database lags). */
const MAX_UNWRITTEN = 4096

/** One recorded attempt, as the analytics and the live tail see it. */
export interface AttemptOutcome {
  deliveryId: string
  appId: string
  installationId: string
  webhookId: string
  event: string
  attempt: number
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED'
  statusCode: number | null
  error: string | null
  durationMs: number
  /** false for the test operation's single attempt, which neither retries nor counts */
  counts: boolean
  /** Answered through `app-platform listen` */
  relayed: boolean
  /** The API version the body was shaped for */
  apiVersion: ApiVersion
}

/**
 * A delivery to attempt in this process. `fresh` (with `claimed`): a first attempt just dispatched,
 * whose delivery is not written yet (the event, by id, is leased to this process; the outcome writes
 * the delivery); `claimed` alone: already claimed (an erasure's delivery, written by its dispatch);
 * `reserved`: the attempt count at reservation (redelivered or replayed by this process); none of
 * them: claim it if it is due and free.
 */
export interface AttemptItem { id: string, reserved?: number, claimed?: Claimed, fresh?: string }

/** A delivery whose attempt this process holds the lease of, with what the attempt needs. */
export interface Claimed {
  id: string
  webhookId: string
  appId: string
  installationId: string
  businessId: string
  event: string
  data: Record<string, unknown>
  /** `data` as JSON, when the dispatcher serialized it once for all the event's registrations. */
  dataJson?: string
  attempts: number
  cycleAttempts: number
  occurredAt: Date
  /** The `traceparent` of the request that wrote the event (tracing on): the attempt's span joins its trace. */
  traceParent?: string | null
  url: string | null
  secretEncrypted: string | null
  isActive: boolean | null
  appWebhookUrl: string | null
  signatureScheme: SignatureScheme
  /** The API version the body is shaped for: the registration's, else its installation's pinned one. */
  apiVersion: ApiVersion
}

/**
 * One attempt of one delivery. Claiming is a conditional UPDATE that takes a lease on the row, so a
 * delivery is never attempted twice at once, whichever processes, jobs or sweeps ask for it.
 */
export function createDeliveryEngine (deps: DeliveryDeps) {
  const { db, sender } = deps
  const leaseMs = deps.timeoutMs + LEASE_MARGIN_MS
  const secrets = new Map<string, string>()

  function secretOf (encrypted: string): string {
    let plain = secrets.get(encrypted)
    if (plain === undefined) {
      plain = decryptSecret(encrypted, deps.encryptionKey)
      if (secrets.size > 10_000) secrets.clear()
      secrets.set(encrypted, plain)
    }
    return plain
  }

  /**
   * A reserved item (just dispatched, redelivered or replayed by this process) is taken when nobody
   * attempted it since the reservation; any other item only when it is due and its lease has expired.
   */
  async function claim (item: AttemptItem): Promise<Claimed | null> {
    const condition = item.reserved !== undefined
      ? sql`d.attempts = ${item.reserved}`
      : sql`d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())`
    const [row] = await rows(db, sql<any>`
      with c as (
        update webhook_deliveries d set attempts = d.attempts + 1, cycle_attempts = d.cycle_attempts + 1,
          locked_until = now() + ${leaseMs}::int * interval '1 millisecond'
        where d.id = ${item.id} and d.status = 'PENDING' and ${condition}
        returning d.id, d.webhook_id, d.app_id, d.installation_id, d.business_id, d.event, d.data, d.attempts, d.cycle_attempts, d.occurred_at, d.trace_parent
      )
      select c.*, w.url, w.secret_encrypted, w.is_active, a.webhook_url as app_webhook_url, coalesce(w.api_version, i.api_version) as api_version,
        -- the app's own webhook (and data erasure, sent to the app's webhookUrl) is signed as the app chose
        case when w.is_app_webhook or c.event = ${DATA_ERASURE} then a.webhook_signature_scheme else w.signature_scheme end as signature_scheme
      from c left join webhooks w on w.id = c.webhook_id left join apps a on a.id = c.app_id left join installations i on i.id = c.installation_id`)
    if (row === undefined) return null
    return {
      id: row.id,
      webhookId: row.webhook_id,
      appId: row.app_id,
      installationId: row.installation_id,
      businessId: row.business_id,
      event: row.event,
      data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
      attempts: Number(row.attempts),
      cycleAttempts: Number(row.cycle_attempts),
      occurredAt: new Date(row.occurred_at),
      traceParent: row.trace_parent ?? null,
      url: row.url ?? null,
      secretEncrypted: row.secret_encrypted ?? null,
      isActive: row.is_active ?? null,
      appWebhookUrl: row.app_webhook_url ?? null,
      signatureScheme: row.signature_scheme === 'standard-webhooks' ? 'standard-webhooks' : 'spec',
      apiVersion: isApiVersion(row.api_version) ? row.api_version : DOMAIN_API_VERSION
    }
  }

  /** The registration went away or was switched off: the delivery ends without a request. */
  async function abandon (claimed: Claimed, reason: string): Promise<void> {
    await db.execute(sql`update webhook_deliveries set status = 'FAILED', attempts = attempts - 1, cycle_attempts = cycle_attempts - 1,
      last_error = ${reason}, locked_until = null, next_attempt_at = null, completed_at = now()
      where id = ${claimed.id} and attempts = ${claimed.attempts}`)
  }

  function logAttempt (claimed: Claimed, result: SendResult, headers: Record<string, string> | null, retryDelaySeconds: number | undefined) {
    const nextRetry = retryDelaySeconds === undefined ? sql`null` : sql`now() + ${retryDelaySeconds}::float8 * interval '1 second'`
    return sql`insert into webhook_attempts (id, delivery_id, attempt, status_code, duration_ms, error, response_snippet, request_headers, next_retry_at, relayed)
      values (${newId('att')}, ${claimed.id}, ${claimed.attempts}, ${result.statusCode}, ${result.durationMs}, ${result.error}, ${result.responseSnippet},
        ${headers === null ? null : JSON.stringify(headers)}::jsonb, ${nextRetry}, ${result.relayed === true})`
  }

  function report (claimed: Claimed, result: SendResult, status: AttemptOutcome['status'], counts: boolean): void {
    deps.onAttempt({
      deliveryId: claimed.id, appId: claimed.appId, installationId: claimed.installationId, webhookId: claimed.webhookId, event: claimed.event,
      attempt: claimed.attempts, status, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, counts,
      relayed: result.relayed === true, apiVersion: claimed.apiVersion
    })
  }

  /**
   * Fresh deliveries (dispatched, not written yet) outstanding per leased event. An event is stamped
   * dispatched only after every one of its deliveries has been recorded, in a later statement than
   * the last record, so a crash in between leaves nothing unrecorded behind a dispatched event.
   */
  const outstanding = new Map<string, number>()
  /** Fresh deliveries queued or under way here: an event taken again (its lease ran out in a long queue) adds no second copy. */
  const inFlight = new Set<string>()
  let finished: string[] = []

  /** Counts the fresh items in; answers the items to queue, leaving out fresh ones already in flight in this process. */
  function track (items: AttemptItem[]): AttemptItem[] {
    return items.filter((item) => {
      if (item.fresh === undefined) return true
      if (inFlight.has(item.id)) return false
      inFlight.add(item.id)
      outstanding.set(item.fresh, (outstanding.get(item.fresh) ?? 0) + 1)
      return true
    })
  }

  /** Events with a fresh delivery whose outcome could not be written: never stamped here (its lease runs out, and it is dispatched again). */
  const unrecorded = new Set<string>()

  /** The fresh delivery is no longer in flight here: its outcome is committed (`recorded`), or could not be, or it was never attempted. */
  function settle (item: { id: string, fresh: string }, recorded: boolean): void {
    if (!inFlight.delete(item.id)) return
    const eventId = item.fresh
    if (!recorded) unrecorded.add(eventId)
    const left = (outstanding.get(eventId) ?? 1) - 1
    if (left > 0) {
      outstanding.set(eventId, left)
      return
    }
    outstanding.delete(eventId)
    if (unrecorded.delete(eventId)) return
    finished.push(eventId)
    schedule()
  }

  /** The fresh delivery's row, as its first attempt left it. */
  const freshDelivery = (claimed: Claimed, eventId: string) => sql`insert into webhook_deliveries (id, webhook_id, installation_id, app_id, business_id,
      event_id, event, data, occurred_at, attempts, cycle_attempts, next_attempt_at, locked_until, trace_parent)
    select ${claimed.id}, ${claimed.webhookId}, ${claimed.installationId}, ${claimed.appId}, ${claimed.businessId}, e.id, e.event, e.data, e.created_at,
      1, 1, now(), now() + ${leaseMs}::int * interval '1 millisecond', e.trace_parent
    from outbox_events e where e.id = ${eventId}
    on conflict do nothing`

  /**
   * Successes are written in groups: while one statement runs, the next ones gather, so under load one
   * round trip records many deliveries (a fresh one inserted as it ended, SUCCEEDED; one attempted
   * before updated) with their attempt rows, and stamps the events whose deliveries are all recorded.
   */
  interface Success {
    claimed: Claimed, result: SendResult, headers: Record<string, string>, counts: boolean, fresh: string | undefined
    resolve: () => void, reject: (error: unknown) => void
  }
  let pending: Success[] = []
  let flushing = false

  async function writeSuccesses (batch: Success[], events: string[]): Promise<void> {
    const rows = batch.map((s) => ({
      attempt_id: newId('att'), delivery_id: s.claimed.id, attempt: s.claimed.attempts, status_code: s.result.statusCode,
      duration_ms: s.result.durationMs, snippet: s.result.responseSnippet, headers: s.headers, counts: s.counts, fresh: s.fresh ?? null,
      webhook_id: s.claimed.webhookId, installation_id: s.claimed.installationId, app_id: s.claimed.appId, business_id: s.claimed.businessId,
      relayed: s.result.relayed === true
    }))
    // jsonb parameters: both drivers pass them the same way, whatever the batch size
    await db.execute(sql`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(attempt_id text, delivery_id text, attempt int, status_code int,
          duration_ms int, snippet text, headers jsonb, counts boolean, fresh text, webhook_id text, installation_id text, app_id text, business_id text,
          relayed boolean)
      ),
      inserted as (
        insert into webhook_deliveries (id, webhook_id, installation_id, app_id, business_id, event_id, event, data, occurred_at,
          status, attempts, cycle_attempts, last_status_code, last_duration_ms, completed_at, trace_parent)
        select v.delivery_id, v.webhook_id, v.installation_id, v.app_id, v.business_id, e.id, e.event, e.data, e.created_at,
          'SUCCEEDED', 1, 1, v.status_code, v.duration_ms, now(), e.trace_parent
        from v join outbox_events e on e.id = v.fresh
        on conflict do nothing
        returning webhook_id
      ),
      a as (
        insert into webhook_attempts (id, delivery_id, attempt, status_code, duration_ms, response_snippet, request_headers, relayed)
        select attempt_id, delivery_id, attempt, status_code, duration_ms, snippet, headers, relayed from v
      ),
      updated as (
        update webhook_deliveries d set status = 'SUCCEEDED', last_status_code = v.status_code, last_error = null,
          last_duration_ms = v.duration_ms, locked_until = null, next_attempt_at = null, completed_at = now()
        from v where v.fresh is null and d.id = v.delivery_id and d.attempts = v.attempt returning d.webhook_id, v.counts
      ),
      stamped as (${outboxDispatch.stamp(events)})
      update webhooks set consecutive_failures = 0
      where id in (select webhook_id from updated where counts union select webhook_id from inserted) and consecutive_failures <> 0`)
  }

  let flushed: Promise<void> = Promise.resolve()

  async function flush (): Promise<void> {
    while (pending.length > 0 || finished.length > 0) {
      const batch = pending
      const events = finished
      pending = []
      finished = []
      try {
        await writeSuccesses(batch, events)
      } catch (error) {
        for (const s of batch) {
          if (s.fresh !== undefined) settle({ id: s.claimed.id, fresh: s.fresh }, false)
          s.reject(error)
        }
        continue
      }
      for (const s of batch) {
        if (s.fresh !== undefined) settle({ id: s.claimed.id, fresh: s.fresh }, true)
        report(s.claimed, s.result, 'SUCCEEDED', s.counts)
        s.resolve()
      }
    }
    flushing = false
  }

  /**
   * The next group goes after the answers that have already arrived (I/O runs before setImmediate):
   * PGlite answers a statement without yielding, so without this pause every group would be of one.
   */
  function schedule (): void {
    if (flushing) return
    flushing = true
    flushed = new Promise((resolve) => setImmediate(() => { flush().catch(() => {}).finally(resolve) }))
  }

  /** Resolves once every outcome given so far is written and the events they finished are stamped (on close). */
  async function drain (): Promise<void> {
    // eslint-disable-next-line no-unmodified-loop-condition -- flush() clears it while this loop awaits
    while (flushing) await flushed
  }

  let unwritten = 0

  async function succeeded (claimed: Claimed, result: SendResult, headers: Record<string, string>, counts: boolean, fresh: string | undefined): Promise<void> {
    unwritten++
    try {
      await new Promise<void>((resolve, reject) => {
        pending.push({ claimed, result, headers, counts, fresh, resolve, reject })
        schedule()
      })
    } finally {
      unwritten--
    }
  }

  async function failed (claimed: Claimed, result: SendResult, headers: Record<string, string> | null, retry: boolean, fresh?: string): Promise<void> {
    const delay = retry ? deps.retryScheduleSeconds[claimed.cycleAttempts - 1] : undefined
    // if it throws, attempt() takes the fresh delivery out of flight
    const recorded = await db.transaction(async (tx): Promise<AttemptOutcome['status'] | null> => {
      if (fresh !== undefined) await tx.execute(freshDelivery(claimed, fresh))
      await tx.execute(logAttempt(claimed, result, headers, delay))
      if (delay !== undefined) {
        const updated = await rows(tx, sql<{ id: string }>`update webhook_deliveries set last_status_code = ${result.statusCode}, last_error = ${result.error},
          last_duration_ms = ${result.durationMs}, locked_until = null, next_attempt_at = now() + ${delay}::float8 * interval '1 second'
          where id = ${claimed.id} and attempts = ${claimed.attempts} returning id`)
        if (updated.length === 0) return null
        await deps.jobs.ensureQueue(DELIVER_JOB)
        await deps.jobs.boss.send(DELIVER_JOB, { deliveryId: claimed.id }, { startAfter: delay, retryLimit: 3, retryDelay: 5, db: txExecutor(tx) })
        return 'PENDING'
      }
      const updated = await rows(tx, sql<{ id: string }>`update webhook_deliveries set status = 'FAILED', last_status_code = ${result.statusCode},
        last_error = ${result.error}, last_duration_ms = ${result.durationMs}, locked_until = null, next_attempt_at = null, completed_at = now()
        where id = ${claimed.id} and attempts = ${claimed.attempts} returning id`)
      if (updated.length === 0) return null
      if (!retry) return 'FAILED'
      // consecutive failed deliveries (not attempts) switch the registration off
      const reason = `Disabled after ${deps.disableAfterFailures} consecutive failed deliveries; the last one: ${result.error ?? 'no answer'}`
      const [webhook] = (await rows(tx, sql<any>`update webhooks set consecutive_failures = consecutive_failures + 1,
          is_active = case when consecutive_failures + 1 >= ${deps.disableAfterFailures}::int and is_active then false else is_active end,
          disabled_reason = case when consecutive_failures + 1 >= ${deps.disableAfterFailures}::int and is_active then ${reason} else disabled_reason end,
          updated_at = now()
        where id = ${claimed.webhookId} returning is_active, consecutive_failures`))
      if (webhook !== undefined && webhook.is_active === false && Number(webhook.consecutive_failures) === deps.disableAfterFailures) {
        deps.onDisabled(claimed.webhookId, reason)
      }
      return 'FAILED'
    })
    if (fresh !== undefined) settle({ id: claimed.id, fresh }, true)
    if (recorded !== null) report(claimed, result, recorded, retry)
  }

  /**
   * `background`: a success is left to its group write and the attempt returns at once, so the slot
   * it held (the queue's concurrency) sends the next one meanwhile; the write still settles the event,
   * and `drain` waits for it.
   */
  interface AttemptOptions { retry?: boolean, background?: boolean }

  /**
   * Claims, sends and records one attempt. `retry: false` (the test operation) makes a single attempt
   * that neither retries nor counts towards auto-disable. Returns null when the item was not claimable.
   */
  async function attempt (item: AttemptItem, options: AttemptOptions = {}): Promise<SendResult | null> {
    if (item.fresh === undefined) return await attemptOnce(item, options)
    try {
      return await attemptOnce(item, options)
    } catch (error) {
      // no outcome handed over (or its write failed, already settled): no longer in flight here
      settle({ id: item.id, fresh: item.fresh }, false)
      throw error
    }
  }

  async function attemptOnce (item: AttemptItem, options: AttemptOptions): Promise<SendResult | null> {
    const claimed = item.claimed ?? await claim(item)
    if (claimed === null) return null
    // a span in the trace of the request that wrote the event (a root span when it had none)
    return await inSpan(`webhook attempt ${claimed.event}`, {
      parent: claimed.traceParent ?? null,
      kind: SpanKind.PRODUCER,
      attributes: { 'webhook.event': claimed.event, 'webhook.delivery_id': claimed.id, 'webhook.attempt': claimed.attempts, 'app.id': claimed.appId }
    }, async (span) => {
      const result = await sendAndRecord(item, claimed, options)
      if (result !== null) {
        if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode)
        if (!result.success) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? 'failed' })
      }
      return result
    })
  }

  /**
   * The body as the registration's API version shapes it. The stored event data is unversioned (the
   * platform's own record, DOMAIN_API_VERSION's shape, whenever it was written): it is presented in the
   * newest version's shape, then downgraded for an older one, by the registry's transforms
   * (sdk/src/contract/api-versions.ts). An event no version changes is sent from its stored bytes.
   */
  async function bodyFor (claimed: Parameters<typeof envelopeBody>[0] & { apiVersion: ApiVersion }): Promise<string> {
    const shape = `event:${claimed.event}`
    if (!shapeChanges(shape, DOMAIN_API_VERSION)) return envelopeBody(claimed)
    const current = present(shape, claimed.data, { currency: await deps.currencyOf(claimed.businessId) })
    return envelopeBody({ ...claimed, dataJson: undefined, data: downgrade(shape, current, claimed.apiVersion) as Record<string, unknown> })
  }

  async function sendAndRecord (item: AttemptItem, claimed: Claimed, options: AttemptOptions): Promise<SendResult | null> {
    const retry = options.retry ?? true
    // business.data_erasure goes to the app's current webhookUrl, whatever the registration's state
    const erasure = claimed.event === DATA_ERASURE
    const url = erasure ? claimed.appWebhookUrl ?? claimed.url : claimed.url
    if (url === null || claimed.secretEncrypted === null) {
      await abandon(claimed, 'Webhook deleted')
      return null
    }
    if (!erasure && claimed.isActive !== true && retry) {
      await abandon(claimed, 'Webhook inactive')
      return null
    }
    const rawBody = await bodyFor(claimed)
    let secret: string
    try {
      secret = secretOf(claimed.secretEncrypted)
    } catch {
      // an ENCRYPTION_KEY that differs between processes: an operator error, logged as a failed attempt
      const undecryptable = { success: false, statusCode: null, durationMs: 0, error: 'The webhook secret cannot be decrypted (ENCRYPTION_KEY mismatch)', responseSnippet: null }
      await failed(claimed, undecryptable, null, retry, item.fresh)
      return null
    }
    const headers = deliveryHeaders({
      secret, rawBody, webhookId: claimed.webhookId, event: claimed.event, deliveryId: claimed.id, scheme: claimed.signatureScheme, now: deps.clock.nowMs(),
      apiVersion: claimed.apiVersion
    })
    const result = (await deps.relay?.(claimed, rawBody, headers)) ?? await sender.send(url, rawBody, headers)
    if (!result.success) {
      await failed(claimed, result, headers, retry, item.fresh)
      return result
    }
    const written = succeeded(claimed, result, headers, retry, item.fresh)
    if (options.background === true && unwritten <= MAX_UNWRITTEN) {
      written.catch(deps.onWriteError)
      return result
    }
    await written
    return result
  }

  return { attempt, track, drain, leaseMs, bodyFor }
}

export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>
