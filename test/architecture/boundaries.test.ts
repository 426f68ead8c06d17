import { fileURLToPath } from 'node:url'
import t from 'tap'
import { readFileSync } from 'node:fs'
import { capabilityDependencies, checkBoundaries, checkExampleImports, readExampleSources, readFixtureTree, readSources, renderDependencies, type SourceFile } from './boundaries.ts'

// The rules are written at the top of ./boundaries.ts; docs/architecture.md explains them.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const FIXTURES = fileURLToPath(new URL('./fixtures/boundaries/', import.meta.url))

t.test('the source tree keeps every boundary', async (t) => {
  const files = readSources(ROOT)
  t.ok(files.length > 50, 'reads plugins/ and server/')
  t.same(checkBoundaries(files).map((v) => `${v.kind} ${v.file}: ${v.detail}`), [])
})

t.test('docs/architecture.md\'s "Who calls whom" is the graph of the imports (npm run docs:graph rewrites it)', async (t) => {
  const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8')
  const block = /<!-- who-calls-whom:start -->\n```\n([\s\S]*?)\n```\n<!-- who-calls-whom:end -->/.exec(doc)
  t.ok(block !== null, 'the generated block is there')
  t.equal(block?.[1], renderDependencies(capabilityDependencies(readSources(ROOT))))
})

t.test('the reference apps use only the SDK and fastify', async (t) => {
  const files = readExampleSources(ROOT)
  t.ok(files.some((f) => f.path === 'examples/reference-app/src/app.ts'), 'reads examples/*/src')
  t.same(checkExampleImports(files).map((v) => `${v.file}: ${v.detail}`), [])

  const found = checkExampleImports([
    { path: 'examples/demo/src/a.ts', text: "import { buildApp } from '../../../server/app.ts'\nexport const x = buildApp\n" },
    { path: 'examples/demo/src/b.ts', text: "import type { Db } from '../../../server/db/client.ts'\nexport type Y = Db\n" },
    { path: 'examples/demo/src/c.ts', text: "export const z = async () => await import('../../../plugins/oauth/service.ts')\n" },
    { path: 'examples/demo/src/d.ts', text: "import pg from 'pg'\nexport const w = pg\n" },
    { path: 'examples/demo/src/e.ts', text: "import { verifyWebhook } from '@app-platform/sdk'\nimport Fastify from 'fastify'\nimport { join } from 'node:path'\nimport { x } from './a.ts'\nexport const v = [verifyWebhook, Fastify, join, x]\n" }
  ])
  t.same(found.map((v) => v.file), ['examples/demo/src/a.ts', 'examples/demo/src/b.ts', 'examples/demo/src/c.ts', 'examples/demo/src/d.ts'], 'server code, its types, a dynamic import and another package are caught')
})

/** A small tree: two capabilities with their tables, one route file each. */
const SCHEMA: SourceFile[] = [
  { path: 'server/db/schema/shop.ts', text: "export const orders = pgTable('orders', {})\n" },
  { path: 'server/db/schema/hooks.ts', text: "export const hookCalls = pgTable('hook_calls', {})\n" },
  { path: 'server/db/schema/index.ts', text: "export * from './shop.ts'\nexport * from './hooks.ts'\n" },
  { path: 'server/db/client.ts', text: 'export type Db = unknown\n' },
  { path: 'plugins/shop/service.ts', text: "import { orders } from '../../server/db/schema/index.ts'\nexport const place = (db) => db.insert(orders).values({})\n" },
  { path: 'plugins/shop/internal.ts', text: 'export const secret = 1\n' },
  { path: 'plugins/shop/schemas.ts', text: 'export const OrderSchema = {}\n' },
  { path: 'plugins/hooks/service.ts', text: "import { hookCalls } from '../../server/db/schema/index.ts'\nexport const log = (db) => db.insert(hookCalls).values({})\n" },
  { path: 'plugins/hooks/routes.ts', text: "import { OrderSchema } from '../shop/schemas.ts'\nimport type { place } from '../shop/service.ts'\nexport default async (fastify) => { fastify.get('/', {}, async () => OrderSchema) }\n" }
]

function check (extra: SourceFile[], replace: string[] = []) {
  return checkBoundaries([...SCHEMA.filter((f) => !replace.includes(f.path)), ...extra])
}

t.test('the checker', async (t) => {
  t.same(check([]), [], 'accepts the clean fixture: public modules, own tables')

  t.test('catches a route file importing another capability\'s internals', async (t) => {
    const found = check([{ path: 'plugins/hooks/routes.ts', text: "import { secret } from '../shop/internal.ts'\nexport default async (fastify) => { fastify.get('/', {}, async () => secret) }\n" }], ['plugins/hooks/routes.ts'])
    t.match(found, [{ kind: 'import', file: 'plugins/hooks/routes.ts', detail: /shop\/internal\.ts/ }])
  })

  t.test('catches a route file importing db schema, its own capability\'s included', async (t) => {
    const found = check([{ path: 'plugins/shop/routes.ts', text: "import { orders } from '../../server/db/schema/index.ts'\nexport default async (fastify) => { fastify.get('/', {}, async () => fastify.db.select().from(orders)) }\n" }])
    t.match(found, [{ kind: 'route-table', file: 'plugins/shop/routes.ts', detail: /orders/ }])
  })

  t.test('catches a service importing another capability\'s table', async (t) => {
    const found = check([{ path: 'plugins/hooks/report.ts', text: "import { orders } from '../../server/db/schema/index.ts'\nexport const count = (db) => db.select().from(orders)\n" }])
    t.match(found, [{ kind: 'table-import', file: 'plugins/hooks/report.ts', detail: /orders, owned by shop/ }])
  })

  t.test('catches two capabilities writing one table, with drizzle or raw SQL', async (t) => {
    const drizzle = check([{ path: 'plugins/hooks/cleanup.ts', text: "import { orders } from '../../server/db/schema/index.ts'\nexport const wipe = (db) => db.delete(orders)\n" }])
    t.match(drizzle.filter((v) => v.kind === 'write'), [{ file: 'plugins/hooks/cleanup.ts', detail: 'deletes orders, owned by shop' }])
    const raw = check([{ path: 'plugins/hooks/prune.ts', text: 'export const prune = (db) => db.execute(sql`update orders set status = 1`)\n' }])
    t.match(raw, [{ kind: 'write', file: 'plugins/hooks/prune.ts', detail: 'raw SQL writes orders, owned by shop' }])
  })

  t.test('catches server infrastructure importing a plugin (server/app.ts excepted)', async (t) => {
    const found = check([
      { path: 'server/seed.ts', text: "import { place } from '../plugins/shop/service.ts'\nexport const seed = place\n" },
      { path: 'server/app.ts', text: "import shop from '../plugins/shop/index.ts'\nexport default shop\n" }
    ])
    t.match(found, [{ kind: 'import', file: 'server/seed.ts' }])
    t.equal(found.length, 1)
  })

  t.test('catches the composition root registering a capability\'s inner plugin', async (t) => {
    const found = check([{ path: 'server/app.ts', text: "import shop from '../plugins/shop/internal.ts'\nexport default shop\n" }])
    t.match(found, [{ kind: 'import', file: 'server/app.ts', detail: /its index\.ts\) only; found plugins\/shop\/internal\.ts/ }])
  })

  t.test('catches import cycles between files and between capabilities', async (t) => {
    const files = check([
      { path: 'plugins/shop/a.ts', text: "import { b } from './b.ts'\nexport const a = b\n" },
      { path: 'plugins/shop/b.ts', text: "import { a } from './a.ts'\nexport const b = a\n" }
    ])
    t.match(files, [{ kind: 'cycle', detail: /file import cycle: plugins\/shop\/a\.ts → plugins\/shop\/b\.ts → plugins\/shop\/a\.ts/ }])
    const capabilities = check([
      { path: 'plugins/shop/schemas.ts', text: "import { log } from '../hooks/service.ts'\nexport const OrderSchema = log\n" },
      { path: 'plugins/hooks/service.ts', text: "import { hookCalls } from '../../server/db/schema/index.ts'\nimport { OrderSchema } from '../shop/schemas.ts'\nexport const log = (db) => db.insert(hookCalls).values(OrderSchema)\n" }
    ], ['plugins/shop/schemas.ts', 'plugins/hooks/service.ts'])
    t.ok(capabilities.some((v) => v.kind === 'cycle' && v.detail.startsWith('capability import cycle')))
  })

  t.test('a type-only import is no runtime edge', async (t) => {
    t.same(check([
      { path: 'plugins/shop/c.ts', text: "import type { D } from './d.ts'\nexport type C = D\n" },
      { path: 'plugins/shop/d.ts', text: "import { c } from './c.ts'\nexport type D = typeof c\n" }
    ]), [])
  })
})

t.test('planted trees fail the check (test/architecture/fixtures/boundaries)', async (t) => {
  t.test('a raw SQL read of another capability\'s table', async (t) => {
    const found = checkBoundaries(readFixtureTree(`${FIXTURES}sql-read`))
    t.same(found.map((v) => `${v.kind} ${v.file}: ${v.detail}`), ['read plugins/hooks/report.ts: raw SQL reads orders, owned by shop: ask its service'])
  })
})

t.test('ports instead of decorators, and raw SQL reads, in small trees', async (t) => {
  t.test('a capability that decorates the instance is refused; per-request state is not', async (t) => {
    const found = check([
      { path: 'plugins/shop/service.ts', text: "export default async (fastify) => { fastify.decorate('shop', {}); fastify.decorateRequest('cart', null) }\n" }
    ], ['plugins/shop/service.ts'])
    t.same(found.map((v) => `${v.kind} ${v.file}: ${v.detail}`), [
      "decorator plugins/shop/service.ts: decorates the instance with shop: hand it over as the capability's port (server/capability.ts)"
    ])
  })

  t.test('a capability importing the composition root is refused', async (t) => {
    const found = check([{ path: 'plugins/hooks/peek.ts', text: "import { portsOf } from '../../server/app.ts'\nexport const peek = portsOf\n" }])
    t.match(found, [{ kind: 'import', file: 'plugins/hooks/peek.ts', detail: /composition root/ }])
  })

  t.test('two capabilities needing each other\'s ports form a cycle, even through type-only imports', async (t) => {
    const found = check([
      { path: 'plugins/shop/needs.ts', text: "import type { Hooks } from '../hooks/service.ts'\nexport interface ShopNeeds { hooks: Hooks }\n" },
      { path: 'plugins/hooks/needs.ts', text: "import type { OrderSchema } from '../shop/schemas.ts'\nexport type HooksNeeds = typeof OrderSchema\n" }
    ])
    t.match(found, [{ kind: 'cycle', detail: /capability port cycle: hooks → shop → hooks/ }])
  })

  t.test('the graph: what each capability imports of the others, the session guards a unit of their own', async (t) => {
    const graph = capabilityDependencies([
      { path: 'plugins/auth/guards.ts', text: "import { verify } from './session.ts'\nexport const guards = verify\n" },
      { path: 'plugins/auth/service.ts', text: "import type { Shop } from '../shop/service.ts'\nexport type Auth = Shop\n" },
      { path: 'plugins/shop/index.ts', text: "import type { Guards } from '../auth/guards.ts'\nexport type Needs = Guards\n" },
      { path: 'plugins/shop/service.ts', text: 'export type Shop = 1\n' }
    ])
    t.equal(renderDependencies(graph), ['auth        ──▶ shop', 'auth-guards ──▶ (none)', 'shop        ──▶ auth-guards'].join('\n'))
  })

  t.test('a read of one\'s own tables, and a documented READ_JOINS read, pass', async (t) => {
    t.same(check([{ path: 'plugins/hooks/log.ts', text: 'export const q = sql`select * from hook_calls c left join hook_calls d on d.id = c.id`\n' }]), [])
    t.match(check([{ path: 'plugins/hooks/log.ts', text: 'export const q = sql<any>`select * from hook_calls c join "orders" o on o.id = c.order_id`\n' }]),
      [{ kind: 'read', detail: /reads orders, owned by shop/ }])
  })
})
