import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { createServer } from 'node:net'

async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

interface Started { child: ChildProcess, output: () => string, readyMs: number }

/** `npm start` as a user runs it: embedded PGlite in DATA_DIR, no other set-up. */
async function start (dataDir: string, port: number): Promise<Started> {
  const began = Date.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout?.on('data', (chunk) => { output += chunk })
  child.stderr?.on('data', (chunk) => { output += chunk })
  const deadline = Date.now() + 30_000
  while (!output.includes('"msg":"ready"')) {
    if (child.exitCode !== null) throw new Error(`exited early: ${output}`)
    if (Date.now() > deadline) throw new Error(`not ready in 30 s: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, output: () => output, readyMs: Date.now() - began }
}

async function stop (started: Started): Promise<number | null> {
  started.child.kill('SIGTERM')
  const [code] = await once(started.child, 'exit')
  return code as number | null
}

t.test('npm start: embedded database, demo seed, graceful stop, data kept', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-main-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`

  const first = await start(dataDir, port)
  t.teardown(() => { first.child.kill('SIGKILL') })
  t.ok(first.readyMs < 15_000, `ready in ${first.readyMs} ms`)
  t.match(first.output(), /Demo logins/, 'prints the demo logins')
  t.equal((await fetch(`${base}/health`)).status, 200)
  t.equal((await fetch(`${base}/ready`)).status, 200)
  t.equal((await fetch(`${base}/docs/`)).status, 200)
  t.equal((await (await fetch(`${base}/openapi.json`)).json()).openapi, '3.1.0')
  t.match(await (await fetch(`${base}/`)).text(), /<div id="app">/)
  const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'merchant@demo.test', password: 'demo-password' }) })
  t.equal(login.status, 200, 'demo merchant can log in')
  t.equal(await stop(first), 0, 'SIGTERM exits cleanly')

  const second = await start(dataDir, port)
  t.teardown(() => { second.child.kill('SIGKILL') })
  t.notMatch(second.output(), /Demo logins/, 'no second seed')
  const again = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'merchant@demo.test', password: 'demo-password' }) })
  t.equal(again.status, 200, 'data survived the restart')
  t.comment(`restart ready in ${second.readyMs} ms`)
  t.equal(await stop(second), 0)
})
