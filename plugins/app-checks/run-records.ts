import { and, count, desc, eq, inArray, lt } from 'drizzle-orm'
import { checkRuns } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { databaseNow, type Clock } from '../../server/clock.ts'
import { pageWindow } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import { byOutcome } from './runner.ts'
import type { CheckResult, CheckRunView } from './schemas.ts'

const INTERRUPTED = 'The run was interrupted (its server stopped) before it finished; run the checks again.'

export type RunRow = typeof checkRuns.$inferSelect
export type Trigger = RunRow['trigger']

/** What the runs' records are read and closed against. */
export interface RunsContext { executor: Db, clock: Clock }

function view (row: RunRow): CheckRunView {
  return {
    id: row.id, appId: row.appId, version: row.version, trigger: row.trigger, startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null, status: row.status, progress: { done: row.results.length, total: row.planned.length },
    results: byOutcome(row.results)
  }
}

function summary (row: RunRow) {
  const { results: _results, ...rest } = view(row)
  return rest
}

/** A run's unfinished checks, as FAIL: its process stopped before they ran. */
const interrupted = (row: RunRow): CheckResult[] => [...row.results, ...row.planned.slice(row.results.length).map((id) => ({
  id, title: id, outcome: 'FAIL' as const, detail: INTERRUPTED, fix: 'Run the checks again.', evidence: []
}))]

/** Closes as FAILED the RUNNING runs whose deadline passed (their process stopped: restart, crash), or the given ones. */
export async function closeInterrupted ({ executor, clock }: RunsContext, filter: { appId?: string, ids?: string[] } = {}): Promise<void> {
  const where = and(eq(checkRuns.status, 'RUNNING'),
    filter.ids === undefined ? lt(checkRuns.deadline, clock.now()) : inArray(checkRuns.id, filter.ids),
    filter.appId === undefined ? undefined : eq(checkRuns.appId, filter.appId))
  const stale = await executor.select().from(checkRuns).where(where)
  for (const row of stale) {
    await executor.update(checkRuns).set({ status: 'FAILED', results: interrupted(row), finishedAt: databaseNow() })
      .where(and(eq(checkRuns.id, row.id), eq(checkRuns.status, 'RUNNING')))
  }
}

export async function get (context: RunsContext, appId: string, runId: string): Promise<CheckRunView> {
  await closeInterrupted(context, { appId })
  const [row] = await context.executor.select().from(checkRuns).where(and(eq(checkRuns.appId, appId), eq(checkRuns.id, runId))).limit(1)
  if (row === undefined) throw notFound('check_run_not_found', 'Check run')
  return view(row)
}

/** The app's runs, newest first, optionally of one version (results left out: fetch one run for them). */
export async function list (context: RunsContext, appId: string, query: { version?: string, page?: number, limit?: number }) {
  await closeInterrupted(context, { appId })
  const { page, limit, offset } = pageWindow(query)
  const where = and(eq(checkRuns.appId, appId), query.version === undefined ? undefined : eq(checkRuns.version, query.version))
  const [rows, [{ total }]] = await Promise.all([
    context.executor.select().from(checkRuns).where(where).orderBy(desc(checkRuns.startedAt), desc(checkRuns.id)).limit(limit).offset(offset),
    context.executor.select({ total: count() }).from(checkRuns).where(where)
  ])
  return { data: rows.map(summary), total, page, limit }
}

/** The latest run of this version of the app (the reviewer's view), or null. */
export async function latest (context: RunsContext, appId: string, version: string): Promise<CheckRunView | null> {
  await closeInterrupted(context, { appId })
  const [row] = await context.executor.select().from(checkRuns).where(and(eq(checkRuns.appId, appId), eq(checkRuns.version, version)))
    .orderBy(desc(checkRuns.startedAt), desc(checkRuns.id)).limit(1)
  return row === undefined ? null : view(row)
}
