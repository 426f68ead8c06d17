import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'
import type { App } from '../../server/app.ts'
import type { Session } from '../helper.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let built: string | undefined

/**
 * Builds the CLI as `npm run build -w cli` does, once per process: the tests drive what a developer
 * installs. Each process builds into a folder of its own, removed at its exit: test processes run side by side, and a
 * rebuild of cli/dist by one removed the CLI another was running (ERR_MODULE_NOT_FOUND in CI).
 */
export function buildCli (): string {
  if (built === undefined) {
    const outdir = mkdtempSync(join(tmpdir(), 'app-platform-cli-build-'))
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }))
    execFileSync(process.execPath, [join(ROOT, 'cli/build.mjs'), outdir], { stdio: 'inherit' })
    built = join(outdir, 'app-platform.js')
  }
  return built
}

export interface CliResult { code: number | null, stdout: string, stderr: string }

/** A home of its own for the CLI's credentials (XDG_CONFIG_HOME), removed on teardown. */
export function cliHome (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'app-platform-cli-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A running CLI: its output so far, each stdout line as it comes, and its exit. */
export interface CliProcess {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** Resolves with the first stdout line that `match` accepts (JSON lines with --json). */
  line: (match: (line: string) => boolean) => Promise<string>
  exited: Promise<CliResult>
}

export function startCli (args: string[], options: { home: string, cwd?: string, env?: Record<string, string> }): CliProcess {
  const child = spawn(process.execPath, [buildCli(), ...args], {
    cwd: options.cwd ?? options.home,
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: options.home, HOME: options.home, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  const waiters: Array<{ match: (line: string) => boolean, resolve: (line: string) => void }> = []
  const check = () => {
    for (const line of stdout.split('\n')) {
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) { waiters.splice(waiters.indexOf(waiter), 1); waiter.resolve(line) }
      }
    }
  }
  child.stdout?.on('data', (chunk: Buffer) => { stdout += String(chunk); check() })
  child.stderr?.on('data', (chunk: Buffer) => { stderr += String(chunk) })
  const exited = new Promise<CliResult>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    line: async (match) => await new Promise<string>((resolve, reject) => {
      waiters.push({ match, resolve })
      check()
      void exited.then((result) => reject(new Error(`the CLI exited (${String(result.code)}) first: ${result.stdout} ${result.stderr}`)))
    }),
    exited
  }
}

export async function runCli (args: string[], options: { home: string, cwd?: string, env?: Record<string, string> }): Promise<CliResult> {
  return await startCli(args, options).exited
}

/** `login --json`, approved through the API as `developer` once the CLI printed its code. */
export async function cliLogin (app: App, base: string, home: string, developer: Session): Promise<CliResult> {
  const login = startCli(['login', '--json', '--server', base], { home })
  const shown = JSON.parse(await login.line((line) => line.includes('userCode'))) as { userCode: string }
  const approved = await app.inject({ method: 'POST', url: '/oauth/device', headers: developer.auth, payload: { user_code: shown.userCode, decision: 'approve' } })
  if (approved.statusCode !== 204) throw new Error(`approval failed: ${approved.statusCode} ${approved.body}`)
  return await login.exited
}

const REFERENCE = JSON.parse(readFileSync(join(ROOT, 'examples/reference-app/app.manifest.json'), 'utf8')) as {
  listing: { scopes: string[], webhookEvents: string[] }, extensions: Record<string, unknown>
}
/** The reference app's scopes, for `app init --scopes` when a test then uses its extensions. */
export const REFERENCE_SCOPES = REFERENCE.listing.scopes.join(',')

/** Writes the reference app's extensions and webhook events into a new app's app-platform.json, as a developer would edit it. */
export function useReferenceManifest (dir: string): void {
  const file = join(dir, 'app-platform.json')
  const content = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { appUrl: string }
  const appUrl = content.appUrl.replace(/\/+$/, '')
  const extensions = JSON.parse(JSON.stringify(REFERENCE.extensions).replaceAll('{{APP_URL}}', appUrl)) as Record<string, unknown>
  writeFileSync(file, JSON.stringify({ ...content, webhookEvents: REFERENCE.listing.webhookEvents, manifest: extensions }, null, 2))
}
