import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { APP_CATEGORIES, API_VERSIONS, SCOPES, SIGNATURE_SCHEMES, SUBSCRIBABLE_EVENTS, type ApiProblem } from '@app-platform/sdk'
import { CliError } from './context.ts'

/** The app's settings and manifest as a file in its folder (DESIGN §19, §22), with the id of the app it belongs to. */
export const MANIFEST_FILE = 'app-platform.json'

/** The app's settings the file carries beside its manifest, in the order they are written and diffed. */
export const SETTING_KEYS = ['name', 'description', 'category', 'scopes', 'appUrl', 'redirectUrl', 'webhookUrl', 'webhookEvents', 'apiVersion', 'signatureScheme', 'pricing'] as const
export type SettingKey = typeof SETTING_KEYS[number]
export type Settings = Partial<Record<SettingKey, unknown>>

export interface ManifestFile { appId: string, settings: Settings, manifest: Record<string, unknown> }

export function manifestPath (dir: string): string {
  return join(resolve(dir), MANIFEST_FILE)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function isHttpUrl (value: unknown): boolean {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** Every problem of the file's content, each at its JSON path; what only the platform can judge (the manifest's rules) is left to its dry run. */
export function fileProblems (record: Record<string, unknown>): ApiProblem[] {
  const problems: ApiProblem[] = []
  const problem = (path: string, message: string) => { problems.push({ path, message }) }
  const known = new Set<string>(['$schema', '$comment', 'appId', 'manifest', ...SETTING_KEYS])
  for (const key of Object.keys(record)) if (!known.has(key)) problem(`/${key}`, `is not a field of ${MANIFEST_FILE} (${[...known].filter((name) => !name.startsWith('$')).join(', ')})`)
  if (typeof record.appId !== 'string' || record.appId === '') problem('/appId', 'must be the id of your app (see `app-platform apps list`)')
  if (!isRecord(record.manifest)) problem('/manifest', 'must be an object (blocks, embeds, hooks, adminPages, settingsSchema)')
  const text = (key: SettingKey, max: number) => {
    const value = record[key]
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '' || value.length > max)) problem(`/${key}`, `must be a non-empty string of at most ${max} characters`)
  }
  text('name', 100)
  text('description', 500)
  const oneOf = (key: SettingKey, allowed: readonly string[], nullable = false) => {
    const value = record[key]
    if (value === undefined || (nullable && value === null)) return
    if (typeof value !== 'string' || !allowed.includes(value)) problem(`/${key}`, `must be one of ${allowed.join(', ')}${nullable ? ', or null' : ''}`)
  }
  oneOf('category', APP_CATEGORIES)
  oneOf('apiVersion', API_VERSIONS, true)
  oneOf('signatureScheme', SIGNATURE_SCHEMES)
  const list = (key: SettingKey, allowed: readonly string[], what: string) => {
    const value = record[key]
    if (value === undefined) return
    if (!Array.isArray(value)) { problem(`/${key}`, `must be an array of ${what}`); return }
    value.forEach((item, index) => { if (typeof item !== 'string' || !allowed.includes(item)) problem(`/${key}/${index}`, `${JSON.stringify(item)} is not one of the ${what}`) })
  }
  list('scopes', SCOPES, 'scopes')
  list('webhookEvents', SUBSCRIBABLE_EVENTS, 'events an app can subscribe to')
  for (const key of ['appUrl', 'redirectUrl', 'webhookUrl'] as const) {
    const value = record[key]
    if (value === undefined || (value === null && key !== 'redirectUrl')) continue
    if (!isHttpUrl(value)) problem(`/${key}`, `must be an http(s) URL${key === 'redirectUrl' ? '' : ', or null'}`)
  }
  // the plans' own rules (kinds, intervals, the platform's currency) are the platform's: its answer names each plan field
  const pricing = record.pricing
  if (pricing !== undefined) {
    if (!isRecord(pricing) || !Array.isArray(pricing.plans)) problem('/pricing', 'must be an object with a list of plans: {"plans": [...]} (no plans: the app is free)')
    else pricing.plans.forEach((plan, index) => { if (!isRecord(plan)) problem(`/pricing/plans/${index}`, 'must be a plan object (id, name, kind, price, …)') })
  }
  return problems
}

/** Reads and checks app-platform.json: every problem at once, with its JSON path, before anything is sent. */
export function readManifestFile (dir: string): ManifestFile {
  const file = manifestPath(dir)
  if (!existsSync(file)) throw new CliError(`No ${MANIFEST_FILE} in ${resolve(dir)}: run \`app-platform app pull --app <id>\` or \`app-platform app init <dir>\` first`)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`, { problems: [{ path: '', message: (error as Error).message }] })
  }
  if (!isRecord(parsed)) throw new CliError(`${file} must hold a JSON object`, { problems: [{ path: '', message: 'must be an object with appId, the settings and manifest' }] })
  const problems = fileProblems(parsed)
  if (problems.length > 0) throw new CliError(`${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}`, { problems })
  const settings: Settings = {}
  for (const key of SETTING_KEYS) if (parsed[key] !== undefined) settings[key] = parsed[key]
  return { appId: parsed.appId as string, settings, manifest: parsed.manifest as Record<string, unknown> }
}

export function writeManifestFile (dir: string, content: ManifestFile): string {
  const file = manifestPath(dir)
  mkdirSync(resolve(dir), { recursive: true })
  writeFileSync(file, `${JSON.stringify({ appId: content.appId, ...content.settings, manifest: content.manifest }, null, 2)}\n`)
  return file
}

/** The app a command acts on: --app, else the one app-platform.json names. */
export function appIdFrom (option: string | undefined, dir: string): string {
  if (option !== undefined && option !== '') return option
  return readManifestFile(dir).appId
}
