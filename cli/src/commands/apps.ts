import { createInterface } from 'node:readline/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { table } from '../output.ts'
import { CliError, type Context } from '../context.ts'
import type { DeveloperApp } from '@app-platform/sdk'
import { appIdFrom, readManifestFile, SETTING_KEYS, writeManifestFile, type SettingKey, type Settings } from '../manifest-file.ts'

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

/** The app body's name of a setting: the file says `signatureScheme`, the app `webhookSignatureScheme`. */
const BODY_FIELD: Record<SettingKey, string> = {
  name: 'name', description: 'description', category: 'category', scopes: 'scopes', appUrl: 'appUrl', redirectUrl: 'redirectUrl', webhookUrl: 'webhookUrl',
  webhookEvents: 'webhookEvents', apiVersion: 'apiVersion', signatureScheme: 'webhookSignatureScheme', pricing: 'pricing'
}
/** Lists compared as sets: their order means nothing. */
const SET_SETTINGS = new Set<SettingKey>(['scopes', 'webhookEvents'])

/** The app's settings as app-platform.json writes them; an apiVersion the platform does not show is null (2026-11, DESIGN §22). */
export function settingsOf (app: DeveloperApp): Settings {
  const settings: Settings = {}
  for (const key of SETTING_KEYS) settings[key] = app[BODY_FIELD[key]] ?? null
  return settings
}

/** A value's JSON with its objects' keys sorted: the platform keeps pricing as jsonb, in its own key order. */
const sortedJson = (value: unknown): string => JSON.stringify(value ?? null, (_key, item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item)
  ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
  : item)

const same = (key: SettingKey, a: unknown, b: unknown): boolean => SET_SETTINGS.has(key) && Array.isArray(a) && Array.isArray(b)
  ? a.length === b.length && a.every((item) => b.includes(item))
  : sortedJson(a) === sortedJson(b)

/** The settings the file changes: each with the app's value and the file's. */
export function settingsDiff (app: DeveloperApp, wanted: Settings): Array<{ key: SettingKey, from: unknown, to: unknown }> {
  const current = settingsOf(app)
  return SETTING_KEYS.filter((key) => wanted[key] !== undefined && !same(key, current[key], wanted[key]))
    .map((key) => ({ key, from: current[key], to: wanted[key] }))
}

/** `app pull`: the platform's settings and manifest into app-platform.json. */
export async function pullApp (ctx: Context, options: { app?: string, dir: string }): Promise<void> {
  const appId = appIdFrom(options.app, options.dir)
  const app = await ctx.client().apps.get(appId)
  const file = writeManifestFile(options.dir, { appId: app.id, settings: settingsOf(app), manifest: app.manifest })
  ctx.out.result({ appId: app.id, file }, `Wrote the settings and manifest of ${app.name} to ${file}.`)
}

/**
 * `app push`: shows what app-platform.json would change, its settings beside its manifest (the
 * platform's dry run), asks, then saves both. A file with problems (checked here, or refused by the
 * platform's dry run) is reported problem by problem, with JSON paths, and nothing is changed.
 */
export async function pushApp (ctx: Context, options: { dir: string, yes: boolean }): Promise<void> {
  const { appId, settings, manifest } = readManifestFile(options.dir)
  const client = ctx.client()
  const app = await client.apps.get(appId)
  const changes = settingsDiff(app, settings)
  const preview = await ctx.out.spin('Checking the manifest', () => client.apps.putManifest(appId, manifest, true))
  const show = (value: unknown) => JSON.stringify(value)
  ctx.out.info(changes.length === 0
    ? 'Settings: unchanged.'
    : `Settings:\n${changes.map((change) => ctx.out.yellow(`~ ${change.key}: ${show(change.from)} → ${show(change.to)}`)).join('\n')}`)
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
    const answer = await prompt.question('Push these settings and this manifest? [y/N] ')
    prompt.close()
    if (!/^y(es)?$/i.test(answer.trim())) {
      ctx.out.result({ appId, pushed: false, settings: changes.map((change) => change.key), sync: preview.sync }, 'Not pushed.')
      return
    }
  }
  let status = app.status
  if (changes.length > 0) {
    const patch = Object.fromEntries(changes.map((change) => [BODY_FIELD[change.key], change.to]))
    status = (await client.apps.update(appId, patch)).status
  }
  const saved = await client.apps.putManifest(appId, manifest, false)
  // as in the portal: added scopes or a new pricing on a published app wait for a review, the listing keeps its approved ones meanwhile
  const review = app.isPublished && status === 'DRAFT' && app.status !== 'DRAFT'
  ctx.out.result(
    { appId, pushed: true, settings: changes.map((change) => change.key), sync: saved.sync, status, needsReview: review },
    [
      ctx.out.green(`Pushed: ${changes.length} setting${changes.length === 1 ? '' : 's'} changed; extensions ${saved.sync.created.length} created, ${saved.sync.updated.length} updated, ${saved.sync.deactivated.length} deactivated.`),
      ...(review ? [ctx.out.yellow('The new scopes or pricing need a review: the app is a DRAFT until you run `app-platform app submit` and a reviewer approves it.')] : [])
    ].join('\n'))
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
