import type { FastifyInstance } from 'fastify'
import { and, eq } from 'drizzle-orm'
import { checkRuns } from '../../server/db/schema/index.ts'
import { bindTo } from '../../server/db/bind.ts'
import { newId } from '../../server/db/ids.ts'
import { conflict } from './errors.ts'
import { outboundAgent } from '../../server/url-policy.ts'
import type { Apps, AppRow } from '../apps/service.ts'
import type { Guards } from '../auth/guards.ts'
import type { CheckContext } from './context.ts'
import { budgetOf, runChecks, statusOf, type Check } from './runner.ts'
import { contextFor, planChecks, type AppChecksDeps } from './plan.ts'
import { closeInterrupted, get, latest, list, type Trigger } from './run-records.ts'
import { createScopeUses } from './scope-uses.ts'
import type { CheckResult } from './schemas.ts'
import { databaseNow } from '../../server/clock.ts'

export { planChecks, type AppChecksDeps } from './plan.ts'
export type { Trigger } from './run-records.ts'

/** Scope uses are written in batches, like the API counters: no write per App API request. */
const SCOPE_FLUSH_MS = 1000

/**
 * The app checks: a small factory over its state (the runs this process started, whether it is
 * closing, the HTTP agent the checks call through, the scope uses buffered in scope-uses.ts). The
 * run records (run-records.ts: get, list, latest, closing interrupted runs) and a run's plan and
 * context (plan.ts) are plain functions it binds and calls.
 */
export function createAppChecks (deps: AppChecksDeps) {
  const { db, fastify } = deps
  const { clock } = fastify
  const dispatcher = outboundAgent(fastify.outbound)
  /** Runs this process started, by id, until they finish. */
  const running = new Map<string, Promise<void>>()
  const plan = deps.plan ?? planChecks
  const scopeUses = createScopeUses(db, clock)
  const runs = bindTo({ executor: db, clock }, { closeInterrupted, get, list, latest })

  let closing = false
  /** Writes only while the run is RUNNING: a run closed as interrupted stays closed. */
  const stillRunning = (runId: string) => and(eq(checkRuns.id, runId), eq(checkRuns.status, 'RUNNING'))

  async function execute (runId: string, checks: Array<Check<CheckContext>>, context: CheckContext, deadline: number): Promise<void> {
    let results: CheckResult[] = []
    try {
      results = await runChecks(checks, context, {
        deadline,
        clock,
        stopped: () => closing,
        onResult: async (_result, done) => { await db.update(checkRuns).set({ results: done }).where(stillRunning(runId)) },
        onCrash: (check, error) => deps.log.error({ err: error, runId, check: check.id }, 'app check crashed')
      })
    } catch (error) {
      deps.log.error({ err: error, runId }, 'app check run failed')
    }
    if (closing) return
    await db.update(checkRuns).set({ status: results.length === checks.length ? statusOf(results) : 'FAILED', results, finishedAt: databaseNow() })
      .where(stillRunning(runId))
      .catch((error: unknown) => { deps.log.error({ err: error, runId }, 'app check run could not be recorded') })
  }

  /**
   * Starts a run for the app's current version on the developer's sandbox (installed for the run when
   * needed) and returns its id at once; 409 while another run of the app is RUNNING.
   */
  async function start (app: AppRow, sandbox: { businessId: string, userId: string }, trigger: Trigger): Promise<string> {
    await runs.closeInterrupted({ appId: app.id })
    const [busy] = await db.select({ id: checkRuns.id }).from(checkRuns).where(and(eq(checkRuns.appId, app.id), eq(checkRuns.status, 'RUNNING'))).limit(1)
    if (busy !== undefined) throw conflict('check_run_busy', `A check run (${busy.id}) is already running for this app`)
    const context = await contextFor(deps, { dispatcher, scopesExercised: scopeUses.exercised }, app, sandbox.businessId, sandbox.userId, trigger === 'developer')
    const checks = plan(context)
    const id = newId('chk')
    const deadline = clock.nowMs() + budgetOf(checks as Array<Check<unknown>>)
    try {
      await db.insert(checkRuns).values({
        id, appId: app.id, version: app.version, status: 'RUNNING', trigger, planned: checks.map((c) => c.id), results: [], deadline: new Date(deadline)
      })
    } catch (error) {
      // the partial unique index: another process started one in between
      if ((error as { code?: string, cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
        throw conflict('check_run_busy', 'A check run is already running for this app')
      }
      throw error
    }
    const work = execute(id, checks, context, deadline).finally(() => { running.delete(id) })
    running.set(id, work)
    return id
  }

  /** Resolves when the runs this process started have finished (tests). */
  async function idle (): Promise<void> {
    while (running.size > 0) await Promise.allSettled([...running.values()])
  }

  /**
   * Shutdown: the runs of this process are closed as FAILED (interrupted) at once rather than waited for
   * (a run may take minutes); the check in flight stops at its own timeout and writes nothing more.
   */
  async function close (): Promise<void> {
    closing = true
    if (running.size > 0) await runs.closeInterrupted({ ids: [...running.keys()] }).catch((error: unknown) => { deps.log.warn({ err: error }, 'check runs left RUNNING') })
    await scopeUses.flush().catch((error: unknown) => { deps.log.warn({ err: error }, 'scope uses write failed') })
    await dispatcher.close()
  }

  return {
    start, get: runs.get, list: runs.list, latest: runs.latest, closeInterrupted: runs.closeInterrupted,
    recordScopeUse: scopeUses.record, flushScopeUses: scopeUses.flush, scopesExercised: scopeUses.exercised, idle, close
  }
}

export type AppChecks = ReturnType<typeof createAppChecks>

/**
 * Records the scope an App API call exercised (the scope check passed and the call succeeded), for
 * `scopes.used`; every installation counts, since a sandbox install stays after the app's approval.
 * Registered beside the API counting, on the app-token routes.
 */
export function registerScopeUse (scope: FastifyInstance, appChecks: Pick<AppChecks, 'recordScopeUse'>): void {
  scope.addHook('onResponse', async (request, reply) => {
    const installation = request.installation
    if (installation === null || installation === undefined || request.scopeUsed === null || reply.statusCode >= 400) return
    appChecks.recordScopeUse(installation.id, request.scopeUsed)
  })
}

/** What app checks needs of the others: what a run calls (plan.ts), the submissions it runs on, the guards of its routes. */
export interface AppChecksNeeds extends Pick<AppChecksDeps, 'installations' | 'webhooks' | 'checkoutHooks' | 'commerce'> {
  apps: AppChecksDeps['apps'] & Pick<Apps, 'onAppSubmitted' | 'ownedApp' | 'findById'>
  guards: Pick<Guards, 'requireRole'>
}

/** The checks, their scope-use writer (every SCOPE_FLUSH_MS), a run on every submission. */
export async function startAppChecks (fastify: FastifyInstance, needs: AppChecksNeeds): Promise<AppChecks> {
  const { apps, installations, webhooks, checkoutHooks, commerce } = needs
  const service = createAppChecks({
    db: fastify.db,
    log: fastify.log,
    fastify,
    apps,
    installations,
    webhooks,
    checkoutHooks,
    commerce,
    encryptionKey: fastify.config.encryptionKey,
    webhookTimeoutMs: fastify.config.webhookTimeoutMs,
    browserPath: fastify.config.checksBrowserPath
  })
  // a submission starts a run; a run already going (or any trouble starting one) never blocks the submission
  apps.onAppSubmitted.push(async (app, by) => {
    if (by.businessId === null) return
    await service.start(app, { businessId: by.businessId, userId: by.userId }, 'submission')
      .catch((error: unknown) => { fastify.log.warn({ err: error, appId: app.id }, 'no app check run for the submission') })
  })
  const timer = setInterval(() => {
    service.flushScopeUses().catch((error: unknown) => { fastify.log.warn({ err: error }, 'scope uses write failed') })
  }, SCOPE_FLUSH_MS)
  timer.unref()
  // runs left RUNNING by a stopped process are closed as soon as their deadline passed
  fastify.addHook('onReady', async () => { await service.closeInterrupted() })
  fastify.addHook('onClose', async () => {
    clearInterval(timer)
    await service.close()
  })
  return service
}
