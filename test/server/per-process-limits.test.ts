import t from 'tap'
import { buildApp, PER_PROCESS_LIMITS } from '../../server/app.ts'
import { REDIS_URL, testConfig } from '../helper.ts'

/** The warning lines an app logs while it is built with `env`. */
async function warningsAt (env: Record<string, string>): Promise<string[]> {
  const lines: string[] = []
  const app = await buildApp({ config: testConfig(env, null), logger: { level: 'warn', stream: { write: (line: string) => { lines.push(line) } } } })
  await app.close()
  return lines.map((line) => String(JSON.parse(line).msg))
}

t.test('a web process without REDIS_URL says at start that its rate limits are its own', async (t) => {
  t.ok((await warningsAt({ PROCESS_ROLE: 'web' })).includes(PER_PROCESS_LIMITS), 'PROCESS_ROLE=web, no REDIS_URL: warned')
  t.notOk((await warningsAt({ PROCESS_ROLE: 'all' })).includes(PER_PROCESS_LIMITS), 'one process serving all: nothing to share')
  t.notOk((await warningsAt({ PROCESS_ROLE: 'web', REDIS_URL })).includes(PER_PROCESS_LIMITS), 'with Redis: shared')
})
