import { createInterface } from 'node:readline/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { table } from '../output.ts'
import { CliError, type Context } from '../context.ts'
import { appIdFrom, readManifestFile, writeManifestFile } from '../manifest-file.ts'

/** How often `app checks` asks whether the run has finished. */
const CHECKS_POLL_MS = 1000

/** `apps list`: the developer's apps. */
export async function listApps (ctx: Context): Promise<void> {
  const apps = await ctx.client().apps.list()
  const rows = apps.data.map((app) => ({ id: app.id, name: app.name, slug: app.slug, status: app.status, version: app.version, isPublished: app.isPublished }))
  ctx.out.result(rows, rows.length === 0
    ? 'No apps yet: `app-platform app init <dir>` creates one.'
    : table([['ID', 'NAME', 'STATUS', 'VERSION'], ...rows.map((app) => [app.id, app.name, app.status, app.version])]))
}

/** `app pull`: the platform's manifest into app-platform.json. */
export async function pullApp (ctx: Context, options: { app?: string, dir: string }): Promise<void> {
  const appId = appIdFrom(options.app, options.dir)
  const app = await ctx.client().apps.get(appId)
  const file = writeManifestFile(options.dir, { appId: app.id, manifest: app.manifest })
  ctx.out.result({ appId: app.id, file }, `Wrote the manifest of ${app.name} to ${file}.`)
}

/**
 * `app push`: shows what the manifest in app-platform.json would change (the platform's dry run),
 * asks, then saves it. A manifest the platform refuses is reported problem by problem, with JSON
 * paths, and nothing is changed.
 */
export async function pushApp (ctx: Context, options: { dir: string, yes: boolean }): Promise<void> {
  const { appId, manifest } = readManifestFile(options.dir)
  const client = ctx.client()
  const preview = await ctx.out.spin('Checking the manifest', () => client.apps.putManifest(appId, manifest, true))
  const { created, updated, deactivated } = preview.sync
  const name = (ref: { kind: string, key: string }) => `${ref.kind} ${ref.key}`
  const diff = [
    ...created.map((ref) => ctx.out.green(`+ ${name(ref)}`)),
    ...updated.map((ref) => ctx.out.yellow(`~ ${name(ref)}`)),
    ...deactivated.map((ref) => ctx.out.red(`- ${name(ref)} (deactivated; merchants' settings are kept)`))
  ]
  ctx.out.info(diff.length === 0 ? 'The manifest declares no extensions.' : `Extensions:\n${diff.join('\n')}`)
  if (!options.yes) {
    if (ctx.out.json || process.stdin.isTTY !== true) throw new CliError('Not pushed: confirm with --yes when not at a terminal', { exitCode: 1 })
    const prompt = createInterface({ input: process.stdin, output: process.stderr })
    const answer = await prompt.question('Push this manifest? [y/N] ')
    prompt.close()
    if (!/^y(es)?$/i.test(answer.trim())) {
      ctx.out.result({ appId, pushed: false, sync: preview.sync }, 'Not pushed.')
      return
    }
  }
  const saved = await client.apps.putManifest(appId, manifest, false)
  ctx.out.result({ appId, pushed: true, sync: saved.sync }, ctx.out.green(`Pushed: ${saved.sync.created.length} created, ${saved.sync.updated.length} updated, ${saved.sync.deactivated.length} deactivated.`))
}

/** `app submit`: DRAFT → PENDING_REVIEW (the platform runs the app checks on submission). */
export async function submitApp (ctx: Context, options: { app?: string, dir: string }): Promise<void> {
  const app = await ctx.client().apps.submit(appIdFrom(options.app, options.dir))
  ctx.out.result({ appId: app.id, status: app.status }, `${app.name} is ${app.status}: a reviewer will look at it.`)
}

/** `app checks`: runs the platform's checks against the sandbox install and prints each outcome; exit 1 when one fails. */
export async function checkApp (ctx: Context, options: { app?: string, dir: string }): Promise<void> {
  const appId = appIdFrom(options.app, options.dir)
  const client = ctx.client()
  const { checkRunId } = await client.apps.startChecks(appId)
  const run = await ctx.out.spin('Running the app checks', async () => {
    for (;;) {
      const current = await client.apps.checkRun(appId, checkRunId)
      if (current.status !== 'RUNNING') return current
      await sleep(CHECKS_POLL_MS)
    }
  })
  const colour = { PASS: ctx.out.green, WARN: ctx.out.yellow, FAIL: ctx.out.red, SKIP: ctx.out.dim }
  const lines = run.results.map((result) => `${colour[result.outcome](result.outcome.padEnd(4))}  ${result.title}${result.outcome === 'PASS' ? '' : `\n      ${result.detail}${result.fix === null ? '' : `\n      Fix: ${result.fix}`}`}`)
  ctx.out.result(run, `${lines.join('\n')}\n\n${run.status}`)
  if (run.status === 'FAILED') process.exitCode = 1
}
