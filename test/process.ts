import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'

/** Whether `port` can be listened on, on 127.0.0.1, right now. */
async function canListen (port: number): Promise<boolean> {
  const server = createServer()
  return await new Promise<boolean>((resolve) => {
    server.once('error', () => { resolve(false) })
    server.listen(port, '127.0.0.1', () => { server.close(() => { resolve(true) }) })
  })
}

/**
 * Below Linux's ephemeral range (32768–60999), where the kernel picks the local ports of outgoing
 * connections: a port found free there could be taken a moment later by any test's database or HTTP
 * client, which made `npm start`'s PORT + 1 (the storefront) collide now and then.
 */
const LOW = 20_000
const HIGH = 32_000

/**
 * A TCP port on 127.0.0.1 such that it and the `run - 1` after it are free right now (a started server
 * listens on PORT, PORT + 1 for the storefront and PORT + 2 for the reference app), outside the
 * ephemeral range.
 */
export async function freePort (run = 3): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = LOW + Math.floor(Math.random() * (HIGH - LOW - run))
    let free = true
    for (let offset = 0; offset < run && free; offset++) free = await canListen(base + offset)
    if (free) return base
  }
  throw new Error(`freePort: no ${run} free ports in a row between ${LOW} and ${HIGH}`)
}

export interface ServerProcess { child: ChildProcess, output: () => string, readyMs: number }

/**
 * `server/main.ts` as a separate process, as `npm start` runs it, with only `env` (plus PATH, and
 * HOST and LOG_LEVEL unless given): resolves once it logs "ready", rejects if it exits first. It sets
 * no deadline of its own: a busy machine makes a start slower, not a failure, and a start that never
 * comes is bounded by the test file's timeout (test/shards/shards.ts).
 */
export async function startServer (env: Record<string, string>): Promise<ServerProcess> {
  const began = Date.now()
  const child = spawn(process.execPath, ['--conditions=app-platform-source', '--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk)
      if (output.includes('"msg":"ready"')) { cleanup(); resolve() }
    }
    const onExit = () => { cleanup(); reject(new Error(`exited early: ${output}`)) }
    const cleanup = () => { child.off('exit', onExit) }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => { output += String(chunk) })
    child.once('exit', onExit)
  })
  return { child, output: () => output, readyMs: Date.now() - began }
}

/** SIGTERM, then the exit code once it has exited (null when a signal ended it, e.g. a test's SIGKILL). */
export async function stopServer (server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.child.exitCode
  server.child.kill('SIGTERM')
  const [code] = await once(server.child, 'exit')
  return code as number | null
}
