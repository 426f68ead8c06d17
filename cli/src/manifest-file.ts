import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CliError } from './context.ts'

/** The app's manifest as a file in its folder (DESIGN §19), with the id of the app it belongs to. */
export const MANIFEST_FILE = 'app-platform.json'

export interface ManifestFile { appId: string, manifest: Record<string, unknown> }

export function manifestPath (dir: string): string {
  return join(resolve(dir), MANIFEST_FILE)
}

/** Reads and shape-checks app-platform.json; what the platform validates is left to the platform. */
export function readManifestFile (dir: string): ManifestFile {
  const file = manifestPath(dir)
  if (!existsSync(file)) throw new CliError(`No ${MANIFEST_FILE} in ${resolve(dir)}: run \`app-platform app pull --app <id>\` or \`app-platform app init <dir>\` first`)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`)
  }
  const record = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : null
  if (record === null || typeof record.appId !== 'string' || record.appId === '') throw new CliError(`${file} needs "appId": the id of your app (see \`app-platform apps list\`)`)
  const manifest = record.manifest
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw new CliError(`${file} needs "manifest": an object (blocks, embeds, hooks, adminPages, settingsSchema)`)
  return { appId: record.appId, manifest: manifest as Record<string, unknown> }
}

export function writeManifestFile (dir: string, content: ManifestFile): string {
  const file = manifestPath(dir)
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`)
  return file
}

/** The app a command acts on: --app, else the one app-platform.json names. */
export function appIdFrom (option: string | undefined, dir: string): string {
  if (option !== undefined && option !== '') return option
  return readManifestFile(dir).appId
}
