/**
 * `npm run bench:first-start` (#43 item 5): `npm start`'s command on an empty DATA_DIR, from the process
 * start to `/ready` answering 200, demo seed included, with the admin UI built and the server bundled. Round after round
 * it times a start from the migrated template (the usual first start: an earlier one kept it) and one
 * without (the template moved aside, as on a fresh `npm ci`: initdb and the migrations, then the template
 * is kept), and a restart of a stopped server on its DATA_DIR. Prints medians with their range.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { ensureUiBuilt } from '../server/build-ui.ts'
import { ensureServerBuilt } from '../server/build-server.js'
import { templateFile } from '../server/db/template.ts'
import { aim, describeMachine, formatSpread, printAims, ROUNDS, spread, writeJson } from './stats.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** 5 s on a quiet machine (the aim); the README quotes the measured figure. */
const AIM_SECONDS = 5
const DEADLINE_MS = 600_000
/** The embedded database's first start is measured: a PostgreSQL server the caller names (as CI's smoke run does) is left out. */
const { DATABASE_URL: _server, DATABASE_LISTEN_URL: _listen, ...embedded } = process.env
/** How often /ready is asked: the figures are this coarse. */
const POLL_MS = 50

async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

/** Seconds from spawning `npm start`'s command on `dataDir` to /ready answering 200; the server is then stopped. */
async function timeToReady (dataDir: string): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, ['--conditions=app-platform-source', 'server/start.js'], {
    cwd: ROOT,
    env: { ...embedded, PORT: String(port), STOREFRONT_PORT: '0', EXAMPLE_APP_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  const exited = once(child, 'exit')
  try {
    while (performance.now() - started < DEADLINE_MS) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`)
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then((response) => response.ok, () => false)
      if (ready) return (performance.now() - started) / 1000
      // polling another process, gently: a busy loop of fetches would take the CPU the start needs
      await sleep(POLL_MS)
    }
    throw new Error('the server was not ready within 10 minutes')
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

await ensureUiBuilt()
// npm start bundles the server once after a change to its code (server/build-server.js): not timed, as the UI build is not
const bundled = await ensureServerBuilt()
if (bundled.problem !== null) throw new Error(bundled.problem)
const template = templateFile()
const work = mkdtempSync(join(tmpdir(), 'app-platform-first-start-'))
// a template for the rounds that use one: the first start on an empty DATA_DIR keeps it
if (!existsSync(template)) await timeToReady(join(work, 'warm-up'))

const withTemplate: number[] = []
const withoutTemplate: number[] = []
const restart: number[] = []
try {
  for (let round = 0; round < ROUNDS; round++) {
    withTemplate.push(await timeToReady(join(work, `with-${round}`)))
    restart.push(await timeToReady(join(work, `with-${round}`)))
    renameSync(template, `${template}.aside`)
    try {
      withoutTemplate.push(await timeToReady(join(work, `without-${round}`)))
    } finally {
      renameSync(`${template}.aside`, template)
    }
    console.log(`round ${round + 1}: first start ${withTemplate[round].toFixed(1)} s, without a template ${withoutTemplate[round].toFixed(1)} s, restart ${restart[round].toFixed(1)} s`)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}

const figures = { firstStart: spread(withTemplate), withoutTemplate: spread(withoutTemplate), restart: spread(restart) }
console.log(describeMachine())
console.log(`first start on an empty DATA_DIR (demo seed ${process.env.DEMO_SEED === 'false' ? 'off' : 'included'}), from the template: ${formatSpread(figures.firstStart, 1, ' s')}`)
console.log(`the same without a template (a fresh npm ci: initdb, migrations):         ${formatSpread(figures.withoutTemplate, 1, ' s')}`)
console.log(`restart of a stopped server on its DATA_DIR:                             ${formatSpread(figures.restart, 1, ' s')}`)
const aims = [aim(`first start ≤ ${AIM_SECONDS} s (quiet machine)`, figures.firstStart.median <= AIM_SECONDS, formatSpread(figures.firstStart, 1, ' s'))]
printAims(aims)
writeJson('first-start', figures, aims)
