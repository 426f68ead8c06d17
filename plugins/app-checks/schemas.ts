import { Type, type Static } from '@sinclair/typebox'
import { PaginationQuery, Timestamp } from '../../server/schemas.ts'

export const OUTCOMES = ['PASS', 'WARN', 'FAIL', 'SKIP'] as const
export const RUN_STATUSES = ['RUNNING', 'PASSED', 'WARNINGS', 'FAILED'] as const
export type Outcome = typeof OUTCOMES[number]
export type RunStatus = typeof RUN_STATUSES[number]

export const EvidenceSchema = Type.Object({
  request: Type.String({ description: 'What was sent, e.g. "POST https://app.example.com/webhooks (forged signature)"', examples: ['GET https://app.example.com/admin'] }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the answer; null when none came' }),
  headers: Type.Record(Type.String(), Type.String(), { description: 'Headers of the answer' }),
  body: Type.String({ description: 'The first 1 KB of the answer' }),
  durationMs: Type.Integer({ minimum: 0 }),
  at: Timestamp
}, { title: 'CheckEvidence' })
export type Evidence = Static<typeof EvidenceSchema>

export const CheckResultSchema = Type.Object({
  id: Type.String({ description: 'Stable check id, e.g. webhook.rejects_bad_signature or blocks.<blockType>.frameable', examples: ['webhook.accepts_test'] }),
  title: Type.String(),
  outcome: Type.Union(OUTCOMES.map((o) => Type.Literal(o))),
  detail: Type.String({ description: 'What was found' }),
  fix: Type.Union([Type.String(), Type.Null()], { description: 'What to change, in one sentence; null when nothing is to fix' }),
  evidence: Type.Array(EvidenceSchema)
}, { title: 'CheckResult' })
export type CheckResult = Static<typeof CheckResultSchema>

export const CheckRunSchema = Type.Object({
  id: Type.String({ examples: ['chk_3k9v0c2m'] }),
  appId: Type.String(),
  version: Type.String({ description: 'The app version the run checked' }),
  trigger: Type.Union([Type.Literal('developer'), Type.Literal('submission')], { description: 'Started by the developer, or by a submission for review' }),
  startedAt: Timestamp,
  finishedAt: Type.Union([Timestamp, Type.Null()]),
  status: Type.Union(RUN_STATUSES.map((s) => Type.Literal(s))),
  progress: Type.Object({ done: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) }, { description: 'Checks finished of those planned' }),
  results: Type.Array(CheckResultSchema, { description: 'Failures first, then warnings, passes and skips' })
}, { title: 'CheckRun' })
export type CheckRunView = Static<typeof CheckRunSchema>

export const CheckRunSummarySchema = Type.Omit(CheckRunSchema, ['results'], { title: 'CheckRunSummary' })

export const StartedRunSchema = Type.Object({ checkRunId: Type.String() })
export const RunParams = Type.Object({
  appId: Type.String({ minLength: 1, maxLength: 64 }),
  runId: Type.String({ minLength: 1, maxLength: 64 })
})
export const RunsQuery = Type.Composite([
  PaginationQuery(),
  Type.Object({ version: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Only the runs of this app version' })) })
])
