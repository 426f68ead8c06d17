/** App checks (DESIGN §18), as GET /developer/apps/:appId/checks/:runId and GET /review/apps/:appId/checks answer. */
export type CheckOutcome = 'PASS' | 'WARN' | 'FAIL' | 'SKIP'
export type CheckRunStatus = 'RUNNING' | 'PASSED' | 'WARNINGS' | 'FAILED'

export interface CheckEvidence { request: string, status: number | null, headers: Record<string, string>, body: string, durationMs: number, at: string }
export interface CheckResult { id: string, title: string, outcome: CheckOutcome, detail: string, fix: string | null, evidence: CheckEvidence[] }
export interface CheckRunSummary {
  id: string
  appId: string
  version: string
  trigger: 'developer' | 'submission'
  startedAt: string
  finishedAt: string | null
  status: CheckRunStatus
  progress: { done: number, total: number }
}
export interface CheckRun extends CheckRunSummary { results: CheckResult[] }
