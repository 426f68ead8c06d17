import fp from 'fastify-plugin'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import { checkRuns, checkScopeUses } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { conflict, notFound } from './errors.ts'
import { decryptSecret } from '../../server/crypto.ts'
import { outboundAgent } from '../../server/url-policy.ts'
import { pageWindow } from '../../server/schemas.ts'
import type { AppRow } from '../apps/service.ts'
import type { HookPoint } from '../apps/manifest/schemas.ts'
import type { CheckContext } from './context.ts'
import { budgetOf, byOutcome, fail, runChecks, statusOf, type Check } from './runner.ts'
import { oauthChecks } from './checks/oauth.ts'
import { webhookChecks } from './checks/webhooks.ts'
import { hookChecks } from './checks/hooks.ts'
import { frameChecks } from './checks/frames.ts'
import { bridgeChecks } from './checks/bridge.ts'
import { scopeChecks } from './checks/scopes.ts'
import type { CheckResult, CheckRunView } from './schemas.ts'
import { databaseNow } from '../../server/clock.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** App checks (DESIGN §18): runs against the sandbox installation, kept per version. The only writer of its tables. */
    appChecks: AppChecks
  }
}

/** Scope uses are written in batches, like the API counters: no write per App API request. */
const SCOPE_FLUSH_MS = 1000
/** A (installation, scope) pair is written at most this often per process, and this many are remembered. */
const SCOPE_REWRITE_MS = 10 * 60 * 1000
const SCOPE_MEMORY = 100_000
const INTERRUPTED = 'The run was interrupted (its server stopped) before it finished; run the checks again.'

type RunRow = typeof checkRuns.$inferSelect
export type Trigger = RunRow['trigger']

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

/**
 * The checks of one app, in the order they run: the app's entry points first, then what the
 * sandbox installation is called with, its pages, the scopes it used, and the erasure last (an app
 * may forget the sandbox's data on it).
 */
export function planChecks (context: CheckContext): Array<Check<CheckContext>> {
  const [rejects, accepts, erasure] = webhookChecks(context).map(needsInstallation)
  return [
    ...oauthChecks(context), rejects, accepts, ...hookChecks(context).map(needsInstallation), ...frameChecks(context),
    ...bridgeChecks(context).map(needsInstallation), ...scopeChecks(context).map(needsInstallation), erasure
  ]
}

/** A check that calls the app as the sandbox store would: without a sandbox installation it fails, saying how to get one. */
function needsInstallation (check: Check<CheckContext>): Check<CheckContext> {
  return {
    ...check,
    run: async (context) => context.installed
      ? await check.run(context)
      : fail('The app is not installed on the developer\'s sandbox, so the platform could not call it as a store would',
        'Install the app on your sandbox (through its App URL, so that it receives the webhook secret) and run the checks again.')
  }
}

/** What the checks need from other capabilities: passed in, so no capability calls back into this one. */
export interface AppChecksDeps {
  db: Db
  log: FastifyBaseLogger
  fastify: Pick<FastifyInstance, 'apps' | 'installations' | 'webhooks' | 'checkoutHooks' | 'commerce' | 'origins' | 'outbound' | 'clock'>
  encryptionKey: Buffer
  webhookTimeoutMs: number
  browserPath: string | null
  /** Replaces the checks of a run (tests of the runner's guarantees: a crashing check, a hanging one). */
  plan?: (context: CheckContext) => Array<Check<CheckContext>>
}

export function createAppChecks (deps: AppChecksDeps) {
  const { db, fastify } = deps
  const { clock } = fastify
  const dispatcher = outboundAgent(fastify.outbound)
  /** Runs this process started, by id, until they finish. */
  const running = new Map<string, Promise<void>>()
  const plan = deps.plan ?? planChecks

  /** A run's unfinished checks, as FAIL: its process stopped before they ran. */
  const interrupted = (row: RunRow): CheckResult[] => [...row.results, ...row.planned.slice(row.results.length).map((id) => ({
    id, title: id, outcome: 'FAIL' as const, detail: INTERRUPTED, fix: 'Run the checks again.', evidence: []
  }))]

  /** Closes as FAILED the RUNNING runs whose deadline passed (their process stopped: restart, crash), or the given ones. */
  async function closeInterrupted (filter: { appId?: string, ids?: string[] } = {}): Promise<void> {
    const where = and(eq(checkRuns.status, 'RUNNING'),
      filter.ids === undefined ? lt(checkRuns.deadline, clock.now()) : inArray(checkRuns.id, filter.ids),
      filter.appId === undefined ? undefined : eq(checkRuns.appId, filter.appId))
    const stale = await db.select().from(checkRuns).where(where)
    for (const row of stale) {
      await db.update(checkRuns).set({ status: 'FAILED', results: interrupted(row), finishedAt: databaseNow() })
        .where(and(eq(checkRuns.id, row.id), eq(checkRuns.status, 'RUNNING')))
    }
  }

  /**
   * The sandbox's installation of the app, installed for a developer's run when there is none (DESIGN §18);
   * a submission's run installs nothing (an approval would turn that install into a live one).
   */
  async function sandboxInstallation (app: AppRow, businessId: string, userId: string, install: boolean) {
    const existing = await fastify.installations.activeFor(app.id, businessId)
    if (existing !== null || !install) return existing
    const issued = await db.transaction(async (tx) => {
      const locked = await fastify.apps.in(tx).ownedApp(app.developerId, app.id, true)
      return await fastify.installations.in(tx).install({ app: locked, businessId, scopes: locked.scopes, userId, isTestInstall: true })
    })
    return issued.installation
  }

  async function contextFor (app: AppRow, businessId: string, userId: string, install: boolean): Promise<CheckContext> {
    const installation = await sandboxInstallation(app, businessId, userId, install)
    const [business, extensions, hooks] = await Promise.all([
      fastify.commerce.getBusinessProfile(businessId),
      fastify.apps.activeExtensionsOf([app.id], ['block', 'embed', 'hook', 'admin_page']),
      fastify.checkoutHooks.hooksOf(businessId)
    ])
    const of = <T>(kind: string) => extensions.filter((e) => e.kind === kind).map((e) => e.definition as T)
    const activeHooks = new Map([...hooks.entries()]
      .flatMap(([point, list]) => list.filter((h) => h.installationId === installation?.id).map((h) => [point, h] as const)))
    const installationId = installation?.id ?? ''
    const adminOrigin = new URL(fastify.origins.adminUrl).origin
    return {
      app,
      extensions: { blocks: of('block'), embeds: of('embed'), hooks: of('hook'), adminPages: of('admin_page') },
      installed: installation !== null,
      installation: {
        id: installationId, businessId, grantedScopes: installation?.grantedScopes ?? [], installedAt: installation?.installedAt ?? clock.now(),
        webhookSecret: installation === null ? '' : decryptSecret(installation.webhookSecretEncrypted, deps.encryptionKey)
      },
      business: { id: business.id, slug: business.slug, name: business.name, locale: business.locale },
      adminOrigin,
      storefrontOrigin: new URL(fastify.origins.storefrontOrigin(business.slug)).origin,
      policy: fastify.outbound,
      clock,
      dispatcher,
      webhookTimeoutMs: deps.webhookTimeoutMs,
      browserPath: deps.browserPath,
      activeHooks,
      callHook: async (hook, id, point: HookPoint, data) => await fastify.checkoutHooks.call(hook, id, point, data),
      sessionToken: async () => (await fastify.installations.sessionToken({ businessId, installationId, userId, issuer: adminOrigin })).sessionToken,
      scopesExercised: async () => await scopesExercised(installationId),
      subscribedEvents: async () => (await fastify.webhooks.registrationsOf(installationId)).filter((w) => w.isActive).flatMap((w) => w.events),
      memo: new Map()
    }
  }

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
    await closeInterrupted({ appId: app.id })
    const [busy] = await db.select({ id: checkRuns.id }).from(checkRuns).where(and(eq(checkRuns.appId, app.id), eq(checkRuns.status, 'RUNNING'))).limit(1)
    if (busy !== undefined) throw conflict('check_run_busy', `A check run (${busy.id}) is already running for this app`)
    const context = await contextFor(app, sandbox.businessId, sandbox.userId, trigger === 'developer')
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

  async function get (appId: string, runId: string): Promise<CheckRunView> {
    await closeInterrupted({ appId })
    const [row] = await db.select().from(checkRuns).where(and(eq(checkRuns.appId, appId), eq(checkRuns.id, runId))).limit(1)
    if (row === undefined) throw notFound('check_run_not_found', 'Check run')
    return view(row)
  }

  /** The app's runs, newest first, optionally of one version (results left out: fetch one run for them). */
  async function list (appId: string, query: { version?: string, page?: number, limit?: number }) {
    await closeInterrupted({ appId })
    const { page, limit, offset } = pageWindow(query)
    const where = and(eq(checkRuns.appId, appId), query.version === undefined ? undefined : eq(checkRuns.version, query.version))
    const [rows, [{ total }]] = await Promise.all([
      db.select().from(checkRuns).where(where).orderBy(desc(checkRuns.startedAt), desc(checkRuns.id)).limit(limit).offset(offset),
      db.select({ total: count() }).from(checkRuns).where(where)
    ])
    return { data: rows.map(summary), total, page, limit }
  }

  /** The latest run of this version of the app (the reviewer's view), or null. */
  async function latest (appId: string, version: string): Promise<CheckRunView | null> {
    await closeInterrupted({ appId })
    const [row] = await db.select().from(checkRuns).where(and(eq(checkRuns.appId, appId), eq(checkRuns.version, version)))
      .orderBy(desc(checkRuns.startedAt), desc(checkRuns.id)).limit(1)
    return row === undefined ? null : view(row)
  }

  // scopes exercised by App API calls, buffered; a pair written lately is not written again for a while
  let pendingUses = new Map<string, { installationId: string, scope: string }>()
  let written = new Map<string, number>()
  function recordScopeUse (installationId: string, scope: string): void {
    const key = `${installationId} ${scope}`
    const last = written.get(key)
    if (last !== undefined && clock.nowMs() - last < SCOPE_REWRITE_MS) return
    if (written.size >= SCOPE_MEMORY) written = new Map()
    written.set(key, clock.nowMs())
    pendingUses.set(key, { installationId, scope })
  }
  async function flushScopeUses (): Promise<void> {
    if (pendingUses.size === 0) return
    const rows = [...pendingUses.values()]
    pendingUses = new Map()
    await db.insert(checkScopeUses).values(rows.map((row) => ({ ...row, lastUsedAt: databaseNow() })))
      .onConflictDoUpdate({ target: [checkScopeUses.installationId, checkScopeUses.scope], set: { lastUsedAt: sql`excluded.last_used_at` } })
  }
  async function scopesExercised (installationId: string): Promise<string[]> {
    await flushScopeUses()
    const rows = await db.select({ scope: checkScopeUses.scope }).from(checkScopeUses).where(eq(checkScopeUses.installationId, installationId))
    return rows.map((row) => row.scope)
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
    if (running.size > 0) await closeInterrupted({ ids: [...running.keys()] }).catch((error: unknown) => { deps.log.warn({ err: error }, 'check runs left RUNNING') })
    await flushScopeUses().catch((error: unknown) => { deps.log.warn({ err: error }, 'scope uses write failed') })
    await dispatcher.close()
  }

  return { start, get, list, latest, closeInterrupted, recordScopeUse, flushScopeUses, scopesExercised, idle, close }
}

export type AppChecks = ReturnType<typeof createAppChecks>

/**
 * Records the scope an App API call exercised (the scope check passed and the call succeeded), for
 * `scopes.used`; every installation counts, since a sandbox install stays after the app's approval.
 * Registered beside the API counting, on the app-token routes.
 */
export function registerScopeUse (scope: FastifyInstance): void {
  scope.addHook('onResponse', async (request, reply) => {
    const installation = request.installation
    if (installation === null || installation === undefined || request.scopeUsed === null || reply.statusCode >= 400) return
    scope.appChecks.recordScopeUse(installation.id, request.scopeUsed)
  })
}

/** Where the plan of a run can be replaced (tests of the runner's guarantees). */
export interface AppChecksOptions { plan?: AppChecksDeps['plan'] }

export default fp(async function appChecksService (fastify, opts: AppChecksOptions) {
  const service = createAppChecks({
    db: fastify.db,
    log: fastify.log,
    fastify,
    encryptionKey: fastify.config.encryptionKey,
    webhookTimeoutMs: fastify.config.webhookTimeoutMs,
    browserPath: fastify.config.checksBrowserPath,
    plan: opts.plan
  })
  fastify.decorate('appChecks', service)
  // a submission starts a run; a run already going (or any trouble starting one) never blocks the submission
  fastify.onAppSubmitted.push(async (app, by) => {
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
}, { name: 'app-checks', dependencies: ['db', 'clock', 'config', 'outbound', 'origins', 'apps', 'installations', 'webhooks', 'checkout-hooks', 'commerce'] })
