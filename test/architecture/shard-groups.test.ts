import t from 'tap'
import { runsOnThisDatabase } from '../shards/shards.ts'

t.test('the PostgreSQL run repeats only the files whose outcome depends on the database', async (t) => {
  const server = 'postgres://postgres@127.0.0.1:5432/platform_ci'
  for (const file of ['sdk/pack.test.ts', 'contract/drift.test.ts', 'architecture/boundaries.test.ts', 'docs/links.test.ts', 'openapi/openapi.test.ts', 'openapi/generated-client.test.ts']) {
    t.ok(runsOnThisDatabase(file, undefined), `${file} runs on PGlite`)
    t.notOk(runsOnThisDatabase(file, server), `${file} is not repeated on PostgreSQL`)
  }
  for (const file of ['openapi/schema-vs-code.test.ts', 'plugins/webhooks/processes.test.ts', 'server/db.test.ts', 'cli/listen.test.ts', '../examples/reference-app/test/checkout.test.ts']) {
    t.ok(runsOnThisDatabase(file, undefined), `${file} runs on PGlite`)
    t.ok(runsOnThisDatabase(file, server), `${file} runs on PostgreSQL too`)
  }
  t.ok(runsOnThisDatabase('sdk/pack.test.ts', ''), 'an empty DATABASE_URL is the embedded database')
})
