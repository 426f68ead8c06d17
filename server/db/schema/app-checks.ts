import { pgTable, text, timestamp, jsonb, primaryKey, index, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

/** One result of a check run (DESIGN §18), as stored and as answered. */
export interface StoredCheckResult {
  id: string
  title: string
  outcome: 'PASS' | 'WARN' | 'FAIL' | 'SKIP'
  detail: string
  /** What to change, in one sentence (null when the check passed or was skipped). */
  fix: string | null
  evidence: Array<{
    request: string
    status: number | null
    headers: Record<string, string>
    body: string
    durationMs: number
    at: string
  }>
}

/**
 * App checks (DESIGN §18): one row per run, kept per app version. At most one RUNNING run per app,
 * enforced by a partial unique index so that two processes cannot start two. `deadline` is when a
 * run must have finished (the sum of its checks' timeouts plus 10 s): a RUNNING run past it was
 * interrupted (its process stopped) and is closed as FAILED by whichever process looks next.
 */
export const checkRuns = pgTable('check_runs', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull(),
  version: text('version').notNull(),
  status: text('status', { enum: ['RUNNING', 'PASSED', 'WARNINGS', 'FAILED'] }).notNull(),
  /** Who asked: a developer's run, or the run that a submission for review started. */
  trigger: text('trigger', { enum: ['developer', 'submission'] }).notNull(),
  /** The ids of the checks planned, in order (the progress of a running run). */
  planned: jsonb('planned').$type<string[]>().notNull(),
  results: jsonb('results').$type<StoredCheckResult[]>().notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  deadline: timestamp('deadline', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' })
}, (t) => [
  index('check_runs_app_started_idx').on(t.appId, t.startedAt),
  uniqueIndex('check_runs_one_running_idx').on(t.appId).where(sql`status = 'RUNNING'`)
])

/**
 * Scopes that an installation exercised on the App API (a call that passed the scope check), kept
 * for test installs only: the `scopes.used` check reads them. One row per (installation, scope).
 */
export const checkScopeUses = pgTable('check_scope_uses', {
  installationId: text('installation_id').notNull(),
  scope: text('scope').notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
}, (t) => [primaryKey({ columns: [t.installationId, t.scope] })])
