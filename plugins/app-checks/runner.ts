import type { CheckResult, Evidence, Outcome, RunStatus } from './schemas.ts'
import type { Clock } from '../../server/clock.ts'

/** Added once to the sum of the checks' timeouts: a run never takes longer (DESIGN §18). */
export const RUN_GRACE_MS = 10_000
/** What a check that threw says: its internals stay in the server's log. */
export const INTERNAL_ERROR = 'internal error'

export interface Verdict {
  outcome: Outcome
  detail: string
  fix?: string | null
  evidence?: Evidence[]
}

/** One check: a stable id, its title, the longest it may take, and what it does. */
export interface Check<C> {
  id: string
  title: string
  timeoutMs: number
  run: (context: C) => Promise<Verdict>
}

export const pass = (detail: string, evidence: Evidence[] = []): Verdict => ({ outcome: 'PASS', detail, fix: null, evidence })
export const fail = (detail: string, fix: string, evidence: Evidence[] = []): Verdict => ({ outcome: 'FAIL', detail, fix, evidence })
export const warn = (detail: string, fix: string, evidence: Evidence[] = []): Verdict => ({ outcome: 'WARN', detail, fix, evidence })
export const skip = (detail: string): Verdict => ({ outcome: 'SKIP', detail, fix: null, evidence: [] })

export const budgetOf = (checks: Array<Check<unknown>>): number => checks.reduce((sum, check) => sum + check.timeoutMs, 0) + RUN_GRACE_MS

const ORDER: Record<Outcome, number> = { FAIL: 0, WARN: 1, PASS: 2, SKIP: 3 }
/** Failures first, then warnings, passes and skips; the planned order within each. */
export const byOutcome = (results: CheckResult[]): CheckResult[] =>
  results.map((result, index) => ({ result, index }))
    .sort((a, b) => ORDER[a.result.outcome] - ORDER[b.result.outcome] || a.index - b.index)
    .map((r) => r.result)

export function statusOf (results: CheckResult[]): Exclude<RunStatus, 'RUNNING'> {
  if (results.some((r) => r.outcome === 'FAIL')) return 'FAILED'
  return results.some((r) => r.outcome === 'WARN') ? 'WARNINGS' : 'PASSED'
}

/**
 * Runs the checks one after another (their order matters: the erasure goes after the calls that need
 * the app to know its sandbox installation). Each is cut at its own timeout, and at the run's
 * deadline; one that throws is a FAIL saying "internal error", and the run goes on. `onResult`
 * sees every result as it comes (progress). Never throws.
 */
export async function runChecks<C> (checks: Array<Check<C>>, context: C, options: {
  deadline: number
  onResult?: (result: CheckResult, done: CheckResult[]) => Promise<void>
  onCrash?: (check: Check<C>, error: unknown) => void
  /** Stops before the next check (the server is shutting down). */
  stopped?: () => boolean
  /** What the deadline is measured on. */
  clock: Clock
}): Promise<CheckResult[]> {
  const now = (): number => options.clock.nowMs()
  const results: CheckResult[] = []
  for (const check of checks) {
    if (options.stopped?.() === true) break
    const left = options.deadline - now()
    const limit = Math.max(0, Math.min(check.timeoutMs, left))
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<Verdict>((resolve) => {
      timer = setTimeout(() => resolve(fail(`Did not finish within ${limit} ms`, 'Answer faster: every call of this check has to be answered within its timeout.')), limit)
    })
    let verdict: Verdict
    try {
      verdict = await Promise.race([Promise.resolve().then(async () => await check.run(context)), timedOut])
    } catch (error) {
      options.onCrash?.(check, error)
      verdict = fail(INTERNAL_ERROR, 'Run the checks again; if this check keeps failing this way, the platform is at fault, not your app.')
    } finally {
      clearTimeout(timer)
    }
    const result: CheckResult = {
      id: check.id, title: check.title, outcome: verdict.outcome, detail: verdict.detail, fix: verdict.fix ?? null, evidence: verdict.evidence ?? []
    }
    results.push(result)
    try {
      await options.onResult?.(result, results)
    } catch {
      // progress is best effort: the final write carries every result
    }
  }
  return results
}
