import { sql } from 'drizzle-orm'
import { rows } from '../../server/db/rows.ts'
import { decryptSecret } from '../../server/crypto.ts'
import { inSpan, SpanKind, SpanStatusCode } from '../../server/telemetry.ts'
import { deliveryHeaders, envelopeBody } from './signing.ts'
import { DOMAIN_API_VERSION, downgrade, isApiVersion, present, showsAsRecorded, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { INSTALLATION_EVENTS } from '../../sdk/src/contract/events.ts'
import type { SendResult } from './sender.ts'
import { attemptOutcome, type AttemptItem, type Claimed, type DeliveryDeps } from './delivery-types.ts'
import { createEventTracker } from './event-tracker.ts'
import { abandon, recordFailure } from './failures.ts'
import { createSuccessWriter } from './success-writer.ts'
import { databaseNowPlus } from '../../server/clock.ts'

export type { AttemptItem, AttemptOutcome, Claimed, DeliveryDeps } from './delivery-types.ts'
export { DELIVER_JOB } from './failures.ts'

/** A lease outlives the attempt (timeout) by this much, covering the bookkeeping around it. */
export const LEASE_MARGIN_MS = 5000
/** Events aimed at one installation go to the app's current webhookUrl, signed as the app chose (DESIGN §23). */
const APP_WEBHOOK_EVENTS: readonly string[] = INSTALLATION_EVENTS
const APP_WEBHOOK_EVENTS_SQL = sql.join(INSTALLATION_EVENTS.map((event) => sql`${event}`), sql`, `)

/** A claimed delivery as the claim statement answers it: raw columns, timestamps as the database's text, left joins nullable. */
interface ClaimedRow {
  id: string
  webhook_id: string
  app_id: string
  installation_id: string
  business_id: string
  event: string
  data: Record<string, unknown> | string
  attempts: number
  cycle_attempts: number
  occurred_at: string
  trace_parent: string | null
  url: string | null
  secret_encrypted: string | null
  is_active: boolean | null
  app_webhook_url: string | null
  api_version: string | null
  currency: string | null
  signature_scheme: string | null
}

/**
 * One attempt of one delivery: claimed, shaped for its API version, signed and sent here; its outcome
 * recorded by failures.ts or the group writes of success-writer.ts, its event stamped once the event
 * tracker has every delivery of it recorded. Claiming is a conditional UPDATE that takes a lease on the
 * row, so a delivery is never attempted twice at once, whichever processes, jobs or sweeps ask for it.
 */
export function createDeliveryEngine (deps: DeliveryDeps) {
  const { db, sender } = deps
  const leaseMs = deps.timeoutMs + LEASE_MARGIN_MS
  const secrets = new Map<string, string>()
  const tracker = createEventTracker((eventId) => { writer.eventRecorded(eventId) })
  const writer = createSuccessWriter(db, tracker, deps.onAttempt)

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
    const [row] = await rows(db, sql<ClaimedRow>`
      with c as (
        update webhook_deliveries d set attempts = d.attempts + 1, cycle_attempts = d.cycle_attempts + 1,
          locked_until = ${databaseNowPlus({ milliseconds: leaseMs })}
        where d.id = ${item.id} and d.status = 'PENDING' and ${condition}
        returning d.id, d.webhook_id, d.app_id, d.installation_id, d.business_id, d.event, d.data, d.attempts, d.cycle_attempts, d.occurred_at, d.trace_parent
      )
      select c.*, w.url, w.secret_encrypted, w.is_active, a.webhook_url as app_webhook_url, coalesce(w.api_version, i.api_version) as api_version, b.currency,
        -- the app's own webhook (and the installation events, sent to the app's webhookUrl) is signed as the app chose
        case when w.is_app_webhook or c.event in (${APP_WEBHOOK_EVENTS_SQL}) then a.webhook_signature_scheme else w.signature_scheme end as signature_scheme
      from c left join webhooks w on w.id = c.webhook_id left join apps a on a.id = c.app_id left join installations i on i.id = c.installation_id
        left join businesses b on b.id = c.business_id`)
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
      apiVersion: isApiVersion(row.api_version) ? row.api_version : DOMAIN_API_VERSION,
      currency: row.currency ?? null
    }
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
      tracker.settle({ id: item.id, fresh: item.fresh }, false)
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
   * (sdk/src/contract/api-versions.ts). A version that shows the event as it is stored (2026-11, or an
   * event no version changes) gets the stored bytes, and no read of the business's currency. A claimed
   * delivery carries the currency, read by the statement that dispatched or claimed it.
   */
  async function bodyFor (claimed: Parameters<typeof envelopeBody>[0] & { apiVersion: ApiVersion, currency?: string | null }): Promise<string> {
    const shape = `event:${claimed.event}`
    // the registration's version shows the event as it is stored: its bytes, without the currency read
    if (showsAsRecorded(shape, claimed.apiVersion)) return envelopeBody(claimed)
    const current = present(shape, claimed.data, { currency: claimed.currency ?? await deps.currencyOf(claimed.businessId) })
    return envelopeBody({ ...claimed, dataJson: undefined, data: downgrade(shape, current, claimed.apiVersion) as Record<string, unknown> })
  }

  async function sendAndRecord (item: AttemptItem, claimed: Claimed, options: AttemptOptions): Promise<SendResult | null> {
    const retry = options.retry ?? true
    // the installation events (business.data_erasure, the app's charges) go to the app's current webhookUrl, whatever the registration's state
    const erasure = APP_WEBHOOK_EVENTS.includes(claimed.event)
    const url = erasure ? claimed.appWebhookUrl ?? claimed.url : claimed.url
    if (url === null || claimed.secretEncrypted === null) {
      await abandon(db, claimed, 'Webhook deleted')
      return null
    }
    if (!erasure && claimed.isActive !== true && retry) {
      await abandon(db, claimed, 'Webhook inactive')
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
    const result = (await deps.relay?.(claimed, url, rawBody, headers)) ?? await sender.send(url, rawBody, headers)
    if (!result.success) {
      await failed(claimed, result, headers, retry, item.fresh)
      return result
    }
    const written = writer.succeeded(claimed, result, headers, retry, item.fresh)
    if (options.background === true && writer.mayWriteLater()) {
      written.catch(deps.onWriteError)
      return result
    }
    await written
    return result
  }

  /** A failed attempt recorded (if it throws, attempt() takes the fresh delivery out of flight), then reported. */
  async function failed (claimed: Claimed, result: SendResult, headers: Record<string, string> | null, retry: boolean, fresh?: string): Promise<void> {
    const recorded = await recordFailure(deps, leaseMs, claimed, result, headers, retry, fresh)
    if (fresh !== undefined) tracker.settle({ id: claimed.id, fresh }, true)
    if (recorded !== null) deps.onAttempt(attemptOutcome(claimed, result, recorded, retry))
  }

  return { attempt, track: tracker.track, drain: writer.drain, leaseMs, bodyFor }
}

export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>
