import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { unitFiles } from '../shards/shards.ts'
import { unitTierViolations } from './unit-tier.ts'

// The rule is written at the top of ./unit-tier.ts; docs/testing.md explains the tier.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const readTree = (path: string): string | null => {
  try { return readFileSync(join(ROOT, path), 'utf8') } catch { return null }
}
const describe = (found: ReturnType<typeof unitTierViolations>) => found.map((v) => `${v.chain.join(' → ')} (${v.reason})`)

t.test('no unit-tier file reaches a database, the app or the integration helpers', async (t) => {
  const files = unitFiles().map((file) => join('test', file))
  t.ok(files.length >= 10, 'finds the *.unit.test.ts files, the examples\' included')
  t.ok(files.includes('examples/reference-app/test/money-versions.unit.test.ts'))
  t.same(describe(unitTierViolations(files, readTree)), [])
})

/** A small tree: a pure module, one that opens the database behind a service, and the helpers. */
const TREE: Record<string, string> = {
  'server/money.ts': 'export const cents = (n: number) => n * 100\n',
  'server/db/client.ts': "import { PGlite } from '@electric-sql/pglite'\nexport const open = () => new PGlite()\n",
  'server/app.ts': "import { open } from './db/client.ts'\nexport const buildApp = () => open()\n",
  'plugins/shop/service.ts': "import { open } from '../../server/db/client.ts'\nexport const place = () => open()\n",
  'plugins/shop/types.ts': "import type { open } from '../../server/db/client.ts'\nexport type Db = ReturnType<typeof open>\n",
  'test/helper.ts': "import { buildApp } from '../server/app.ts'\nexport const build = () => buildApp()\n"
}
const check = (file: string, text: string) => unitTierViolations([file], (path) => path === file ? text : TREE[path] ?? null)

t.test('the guard', async (t) => {
  t.same(check('test/server/money.unit.test.ts', "import t from 'tap'\nimport { cents } from '../../server/money.ts'\nimport type { Db } from '../../plugins/shop/types.ts'\nimport { join } from 'node:path'\nt.equal(cents(1), 100)\n"), [],
    'accepts pure imports, a type-only import of database types, node built-ins')

  t.test('catches the integration helpers', async (t) => {
    const found = check('test/shop/a.unit.test.ts', "import { build } from '../helper.ts'\nawait build()\n")
    t.match(describe(found), [/^test\/shop\/a\.unit\.test\.ts → test\/helper\.ts \(the integration helpers/])
  })

  t.test('catches the app builder, by a dynamic import too', async (t) => {
    const found = check('test/b.unit.test.ts', "export const app = async () => (await import('../server/app.ts')).buildApp()\n")
    t.match(describe(found), [/^test\/b\.unit\.test\.ts → server\/app\.ts \(the app builder\)/])
  })

  t.test('catches the database reached through a module under test, with the chain', async (t) => {
    const found = check('test/plugins/shop/c.unit.test.ts', "import { place } from '../../../plugins/shop/service.ts'\nplace()\n")
    t.match(describe(found), ['test/plugins/shop/c.unit.test.ts → plugins/shop/service.ts → server/db/client.ts (the database client)'])
  })

  t.test('catches a database package imported directly, a re-export included', async (t) => {
    t.match(describe(check('test/d.unit.test.ts', "import { PGlite } from '@electric-sql/pglite/vector'\nnew PGlite()\n")), [/@electric-sql\/pglite \(PGlite\)/])
    t.match(describe(check('test/e.unit.test.ts', "export { default } from 'pg'\n")), [/→ pg \(the PostgreSQL driver\)/])
  })
})
