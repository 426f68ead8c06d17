import type { Db } from '../../server/db/client.ts'
import type { Clock } from '../../server/clock.ts'
import type { Provided } from '../../server/providers.ts'
import type { CounterBuffer, FactsOf } from './counters.ts'

/** Days the daily counters are kept (DESIGN §16 "Analytics storage"). */
export const COUNTER_RETENTION_DAYS = 400
/** Default period of the analytics, today included (UTC days). */
export const TREND_DAYS = 30
/** What used an API version: App API requests, webhook delivery attempts, hook calls. */
export type VersionUseKind = 'requests' | 'webhooks' | 'hooks'

export type Environment = 'live' | 'sandbox'

/** What the delivery engine reports after each recorded attempt (plugins/webhooks/delivery.ts AttemptOutcome). */
export interface AttemptReport { appId: string, installationId: string, event: string, status: 'PENDING' | 'SUCCEEDED' | 'FAILED', durationMs: number, counts: boolean }
/** What the hook runner reports after writing its call log. */
export interface HookCallReport { appId: string, installationId: string, hookPoint: string, success: boolean }

/**
 * What the analytics ask of installations (which depends on app-analytics, so provides this at its
 * boot): whether an installation is a test install (its counts go to the sandbox), and install totals.
 */
export interface InstallationFacts {
  factsOf: FactsOf
  installCountsOf: (appId: string, sandbox: boolean) => Promise<{ total: number, active: number }>
}

/** What the analytics' functions run against: the database, the clock, this process's counter buffer, installations' facts. */
export interface AppAnalyticsContext {
  executor: Db
  clock: Clock
  counters: CounterBuffer
  installations: Provided<InstallationFacts>
}
