import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'
import type { App } from '../../server/app.ts'
import { build, listen, registerUser, type Session } from '../helper.ts'
import { freePort } from '../process.ts'

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

/** A request the local app received. */
export interface Received { path: string, headers: IncomingMessage['headers'], body: string }

/**
 * The local app of a `listen` test, on 127.0.0.1 (closed on teardown): it records every request in
 * `received`, then `answer` answers it (with the response's content type already JSON).
 */
export async function localApp (t: Test, answer: (request: Received, response: ServerResponse) => void): Promise<{ origin: string, received: Received[] }> {
  const received: Received[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => { body += String(chunk) })
    request.on('end', () => {
      const got = { path: request.url ?? '', headers: request.headers, body }
      received.push(got)
      response.setHeader('content-type', 'application/json')
      answer(got, response)
    })
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.close(); server.closeAllConnections() })
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

/** What a `listen` test starts from: see relaySession. */
export interface RelaySession {
  app: App
  base: string
  developer: Session
  home: string
  appId: string
  /** The App URL's origin: a port nobody listens on, so only the relay reaches the local app. */
  production: string
  /** The sandbox install's token and webhook secret (POST /developer/apps/:id/test-install). */
  installed: { accessToken: string, webhookSecret: string }
  /** A checkout quote on the sandbox store (one line, delivery): its answer. */
  quote: () => Promise<{ deliveryFee: number, deliveryFeeSetBy?: unknown }>
}

/**
 * A platform on a port, a developer logged in with the CLI (device approval through the API), an app
 * made by `app init` with the reference app's scopes, extensions and events (pushed), its App URL on
 * a port nobody listens on, test-installed on the developer's sandbox.
 */
export async function relaySession (t: Test, folder: string): Promise<RelaySession> {
  const app = await build(t, { env: { DEVICE_POLL_INTERVAL_SECONDS: '1' } })
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const home = cliHome(t)
  const login = await cliLogin(app, base, home, developer)
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`)
  const production = `http://127.0.0.1:${await freePort()}`
  const dir = join(home, folder)
  const init = await runCli(['app', 'init', dir, '--json', '--server', base, '--app-url', production, '--scopes', REFERENCE_SCOPES], { home })
  if (init.code !== 0) throw new Error(`app init failed: ${init.stderr}`)
  const appId = JSON.parse(init.stdout).appId as string
  useReferenceManifest(dir)
  const pushed = await runCli(['app', 'push', '--yes', '--server', base], { home, cwd: dir })
  if (pushed.code !== 0) throw new Error(`app push failed: ${pushed.stderr}`)
  const installed = await app.inject({ method: 'POST', url: `/developer/apps/${appId}/test-install`, headers: developer.auth })
  if (installed.statusCode !== 201) throw new Error(`test install failed: ${installed.body}`)
  const slug = (await app.inject({ url: '/auth/me', headers: developer.auth })).json().business.slug as string
  const products = (await app.storefront.inject({ url: `/store/${slug}/api/products` })).json().data as Array<{ id: string }>
  const quote = async () => (await app.storefront.inject({
    method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: { items: [{ productId: products[0]?.id, quantity: 1 }], deliveryMethod: 'DELIVERY', address: '1 Main St' }
  })).json()
  return { app, base, developer, home, appId, production, installed: installed.json(), quote }
}
