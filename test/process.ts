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
 * HOST and LOG_LEVEL unless given): resolves once it logs "ready", rejects if it exits or takes
 * longer than `timeoutMs`.
 */
export async function startServer (env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const began = Date.now()
  const child = spawn(process.execPath, ['--conditions=app-platform-source', '--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout?.on('data', (chunk) => { output += chunk })
  child.stderr?.on('data', (chunk) => { output += chunk })
  const deadline = began + timeoutMs
  while (!output.includes('"msg":"ready"')) {
    if (child.exitCode !== null) throw new Error(`exited early: ${output}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`not ready in ${timeoutMs / 1000} s: ${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, output: () => output, readyMs: Date.now() - began }
}

/** SIGTERM, then the exit code once it has exited. */
export async function stopServer (server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode
  server.child.kill('SIGTERM')
  const [code] = await once(server.child, 'exit')
  return code as number | null
}
