import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
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

/** SIGTERM, then the exit code once it has exited. */
export async function stopServer (server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode
  server.child.kill('SIGTERM')
  const [code] = await once(server.child, 'exit')
  return code as number | null
}
