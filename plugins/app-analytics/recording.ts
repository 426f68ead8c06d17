import { sql } from 'drizzle-orm'
import type { Executor } from '../../server/db/client.ts'
import type { AppAnalyticsContext, AttemptReport, HookCallReport, VersionUseKind } from './context.ts'

export type StatusClass = '2xx' | '3xx' | '4xx' | '429' | '5xx'

/** The class an App API answer is counted under: 429 apart from the other 4xx. */
export function statusClass (statusCode: number): StatusClass {
  if (statusCode === 429) return '429'
  if (statusCode >= 500) return '5xx'
  if (statusCode >= 400) return '4xx'
  if (statusCode >= 300) return '3xx'
  return '2xx'
}

/** Installs and uninstalls are counted in the installation's own transaction: exact, and few. */
async function bump (executor: Executor, appId: string, isTestInstall: boolean, metric: 'installs' | 'uninstalls'): Promise<void> {
  await executor.execute(sql`insert into app_daily_counters (app_id, day, sandbox, metric, value)
    values (${appId}, (now() at time zone 'UTC')::date, ${isTestInstall}, ${metric}, 1)
    on conflict (app_id, day, sandbox, metric) do update set value = app_daily_counters.value + 1`)
}

export async function recordInstall (executor: Executor, appId: string, isTestInstall: boolean): Promise<void> {
  await bump(executor, appId, isTestInstall, 'installs')
}

export async function recordUninstall (executor: Executor, appId: string, isTestInstall: boolean): Promise<void> {
  await bump(executor, appId, isTestInstall, 'uninstalls')
}

/** Every attempt counts its duration; a finished delivery counts its outcome. The test operation counts nothing. */
export function recordAttempt ({ counters }: Pick<AppAnalyticsContext, 'counters'>, report: AttemptReport): void {
  if (!report.counts || report.event === 'webhook.test') return
  counters.add(report.appId, report.installationId, 'attempts')
  counters.add(report.appId, report.installationId, 'attempts.duration_ms', report.durationMs)
  if (report.status === 'SUCCEEDED') counters.add(report.appId, report.installationId, 'deliveries.succeeded')
  if (report.status === 'FAILED') counters.add(report.appId, report.installationId, 'deliveries.failed')
}

export function recordHookCalls ({ counters }: Pick<AppAnalyticsContext, 'counters'>, calls: HookCallReport[]): void {
  for (const call of calls) counters.add(call.appId, call.installationId, `hooks.${call.hookPoint}.${call.success ? 'succeeded' : 'failed'}`)
}

export function recordApiRequest ({ counters }: Pick<AppAnalyticsContext, 'counters'>, appId: string, installationId: string, statusCode: number): void {
  counters.add(appId, installationId, `api.${statusClass(statusCode)}`)
}

/** The API version a request, a delivery attempt or a hook call used (issue #31): `versions.<kind>.<version>`. */
export function recordVersionUse ({ counters }: Pick<AppAnalyticsContext, 'counters'>, appId: string, installationId: string, kind: VersionUseKind, version: string): void {
  counters.add(appId, installationId, `versions.${kind}.${version}`)
}
