import type { Db } from '../../server/db/client.ts'
import type { Jobs } from '../../server/jobs.ts'
import type { Clock } from '../../server/clock.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import type { ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import type { Sender, SendResult } from './sender.ts'

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
  relay?: (claimed: Claimed, url: string, rawBody: string, headers: Record<string, string>) => Promise<SendResult | null>
  /** The business's currency, for the API versions whose money objects name it (order and product events carry none). */
  currencyOf: (businessId: string) => Promise<string>
}

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
export interface AttemptItem {
  id: string, reserved?: number, claimed?: Claimed, fresh?: string
  /** With `fresh`: the event's lease as the dispatch set it (the write of its last delivery stamps it only under this lease). */
  lease?: string
}

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
  /** The business's currency, read with the delivery (versions whose money objects name it); absent: read when needed. */
  currency?: string | null
}

/** What `onAttempt` is told of one recorded attempt. */
export function attemptOutcome (claimed: Claimed, result: SendResult, status: AttemptOutcome['status'], counts: boolean): AttemptOutcome {
  return {
    deliveryId: claimed.id, appId: claimed.appId, installationId: claimed.installationId, webhookId: claimed.webhookId, event: claimed.event,
    attempt: claimed.attempts, status, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, counts,
    relayed: result.relayed === true, apiVersion: claimed.apiVersion
  }
}
