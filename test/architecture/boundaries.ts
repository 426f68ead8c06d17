import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import ts from 'typescript'

/**
 * The capability boundaries (docs/architecture.md), checked on the import graph and the source text
 * of every file under plugins/ and server/:
 *
 * (a) Imports. server/app.ts imports of plugins/ only each capability's `index.ts` (its one plugin)
 *     and the session guards. A file imports only its own capability's files, shared server infrastructure
 *     (server/, except server/app.ts), and another capability's public modules: its `index.ts` (the
 *     capability's one plugin, and what it hands other capabilities to mount), its `service.ts` (the
 *     fp-wrapped service and the types it re-exports), its `schemas.ts` files (TypeBox contracts) and
 *     auth's `guards.ts` (the session guards every actor route uses). server/ imports no plugin,
 *     except server/app.ts, the composition root.
 * (b) Tables. Each table belongs to the capability whose `server/db/schema/<capability>.ts` defines it
 *     (`outbox.ts`: server/events.ts). A route file imports no table at all: routes call services. Any
 *     other file imports only its own capability's tables, plus the read-only joins of READ_JOINS
 *     (schema files may reference other tables for foreign keys).
 * (c) Writers. Only the owner runs `.insert(t)`, `.update(t)`, `.delete(t)` on a table, or raw SQL
 *     `insert into t` / `update t` / `delete from t`.
 * (d) No cycle, neither between files (runtime imports) nor between capabilities.
 * (e) Ports, not decorators (server/capability.ts). A capability decorates nothing on the fastify instance
 *     (`decorateRequest`/`decorateReply`, per-request state, excepted): what it offers is its port, handed
 *     to the capabilities that need it at registration, so every dependency between two capabilities is an
 *     import of the other's port type. Nothing under plugins/ imports server/app.ts (the composition root
 *     and its `portsOf`). The capability graph over all imports, type-only included (capabilityGraph), is
 *     what docs/architecture.md's "Who calls whom" shows, and it has no cycle either.
 * (f) Raw SQL reads. A `sql\`...\`` template reads (`from t`, `join t`) only its own capability's
 *     tables, plus the READ_JOINS of its file: what drizzle imports show for (b), raw SQL shows here.
 * The API contract (`sdk/src/contract/`: scopes, events, categories, shared schemas) is free of server
 * code and may be imported from anywhere (DESIGN §16 "Contract source").
 */

export interface SourceFile { path: string, text: string }
export interface Violation { kind: 'import' | 'route-table' | 'table-import' | 'write' | 'read' | 'cycle' | 'decorator', file: string, detail: string }

/**
 * Table owners by schema file; the outbox belongs to the event module of the server, the activity log to
 * its module (server/activity.ts: every capability records its changes there, in its own transaction), the aggregates
 * (list totals, review counts, order and product days: commerce's figures, kept by triggers) to commerce.
 */
const SCHEMA_OWNERS: Record<string, string> = { outbox: 'server', activity: 'server', aggregates: 'commerce' }

/**
 * Reads across a boundary that stay joins on a hot path, each a documented exception: rule (c) still
 * forbids writing these tables.
 */
export const READ_JOINS: Record<string, string[]> = {
  // one query per checkout step: the business's active hooks with their installation's secret and the app's URL
  'plugins/checkout-hooks/active-hooks.ts': ['apps', 'appExtensions', 'installations'],
  // one query per dispatch batch: registrations with their installation's scopes and the app's webhook URL, and
  // the business's currency the body of an older API version names (a read per delivery otherwise, #44)
  'plugins/webhooks/dispatcher.ts': ['apps', 'installations', 'businesses'],
  // one statement per attempt claim: the app's webhook URL and signature scheme as they are now, the
  // installation's pinned API version the body is shaped for, and the business's currency
  'plugins/webhooks/delivery.ts': ['apps', 'installations', 'businesses'],
  // a first attempt's delivery row, written with its outcome, copies its event from the outbox, whose
  // consumer the delivery engine is
  'plugins/webhooks/success-writer.ts': ['outboxEvents'],
  'plugins/webhooks/failures.ts': ['outboxEvents'],
  // idle(): nothing undispatched in the outbox (tests and benches wait for it)
  'plugins/webhooks/delivery-start.ts': ['outboxEvents'],
  // one insert per recorded change: the actor's display name (a staff member's, an app's through its
  // installation) is read in the insert itself
  'server/activity.ts': ['users', 'installations', 'apps']
}

/**
 * The unit of the ports' graph: its capability, but the session guards (plugins/auth/guards.ts) are a unit
 * of their own, below every actor route, which accounts (auth) needs no more than the others do.
 */
const unitOf = (path: string): string | null => path === 'plugins/auth/guards.ts' ? 'auth-guards' : capabilityOf(path)

const capabilityOf = (path: string): string | null => {
  const match = /^plugins\/([^/]+)\//.exec(path)
  if (match !== null) return match[1]
  return path.startsWith('server/') ? 'server' : null
}

const isPublicModule = (path: string): boolean =>
  /\/(service|schemas)\.ts$/.test(path) || /^plugins\/[^/]+\/index\.ts$/.test(path) || path === 'plugins/auth/guards.ts'
const isRouteFile = (file: SourceFile): boolean =>
  file.path.startsWith('plugins/') && (/(^|\/)(index|routes|[\w-]+-routes)\.ts$/.test(file.path) || file.path.includes('/routes/') ||
    /\bfastify\.(get|post|put|patch|delete)\(/.test(file.text))

interface Import { target: string, names: string[], typeOnly: boolean }

function importsOf (file: SourceFile): Import[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const result: Import[] = []
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || statement.moduleSpecifier === undefined) continue
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text
    if (!specifier.startsWith('.')) continue
    const target = normalize(join(dirname(file.path), specifier))
    const names: string[] = []
    let typeOnly = false
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      typeOnly = clause?.isTypeOnly === true
      const bindings = clause?.namedBindings
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        const elements = bindings.elements
        for (const element of elements) if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text)
        if (elements.length > 0 && elements.every((element) => element.isTypeOnly) && clause?.name === undefined) typeOnly = true
      }
    } else {
      typeOnly = statement.isTypeOnly
    }
    result.push({ target, names, typeOnly })
  }
  return result
}

/** Table variable and SQL names → owning capability, read from the schema files. */
function tableOwners (files: SourceFile[]) {
  const byVariable = new Map<string, string>()
  const bySqlName = new Map<string, string>()
  const variableOf = new Map<string, string>()
  for (const file of files) {
    const match = /^server\/db\/schema\/([\w-]+)\.ts$/.exec(file.path)
    if (match === null || match[1] === 'index') continue
    const owner = SCHEMA_OWNERS[match[1]] ?? match[1]
    for (const table of file.text.matchAll(/export const (\w+) = pgTable\('(\w+)'/g)) {
      byVariable.set(table[1], owner)
      bySqlName.set(table[2], owner)
      variableOf.set(table[2], table[1])
    }
  }
  return { byVariable, bySqlName, variableOf }
}

const RAW_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/gi
const RAW_READ = /\b(?:from|join)\s+"?(\w+)"?/gi

const SQL_TEMPLATE = /\bsql(?:<[^`>]*(?:<[^`>]*>)?[^`>]*>)?`([^`]*)`/g

function findCycles (graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string): void => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return cycles
}

export function checkBoundaries (files: SourceFile[]): Violation[] {
  const violations: Violation[] = []
  const { byVariable, bySqlName, variableOf } = tableOwners(files)
  const fileGraph = new Map<string, Set<string>>()
  const capabilityGraph = new Map<string, Set<string>>()
  const addEdge = (graph: Map<string, Set<string>>, from: string, to: string): void => {
    if (!graph.has(from)) graph.set(from, new Set())
    graph.get(from)?.add(to)
  }

  for (const file of files) {
    const own = capabilityOf(file.path)
    if (own === null) continue
    const route = isRouteFile(file)
    const imported = importsOf(file)
    const tablesInScope = new Set<string>()

    for (const { target, names, typeOnly } of imported) {
      const other = capabilityOf(target)
      if (!typeOnly) {
        if (!fileGraph.has(file.path)) fileGraph.set(file.path, new Set())
        fileGraph.get(file.path)?.add(target)
        if (other !== null && other !== own && other !== 'server') addEdge(capabilityGraph, own, other)
      }
      // (a) imports
      if (target.startsWith('sdk/src/contract/')) {
        // the shared contract
      } else if (file.path === 'server/app.ts') {
        // the composition root registers one plugin per capability (its index.ts), and the session guards
        if (other !== null && other !== 'server' && !/^plugins\/[^/]+\/index\.ts$/.test(target) && target !== 'plugins/auth/guards.ts') {
          violations.push({ kind: 'import', file: file.path, detail: `the composition root registers each capability's plugin (its index.ts) only; found ${target}` })
        }
      } else if (own === 'server' && other !== 'server') {
        violations.push({ kind: 'import', file: file.path, detail: `server infrastructure imports ${target}` })
      } else if (other !== null && other !== own && other !== 'server' && !isPublicModule(target)) {
        violations.push({ kind: 'import', file: file.path, detail: `imports ${target}, an internal file of ${other}` })
      }
      // (b) tables
      if (!target.startsWith('server/db/schema/')) continue
      for (const name of names) {
        const owner = byVariable.get(name)
        if (owner === undefined) continue
        tablesInScope.add(name)
        if (route) {
          violations.push({ kind: 'route-table', file: file.path, detail: `route file imports the table ${name} (${owner}): call a service` })
        } else if (owner !== own && !file.path.startsWith('server/db/schema/') && !(READ_JOINS[file.path] ?? []).includes(name)) {
          violations.push({ kind: 'table-import', file: file.path, detail: `imports the table ${name}, owned by ${owner}` })
        }
      }
    }

    // (c) writers: drizzle calls on imported tables, and raw SQL
    for (const call of file.text.matchAll(/\.(insert|update|delete)\((\w+)\)/g)) {
      const owner = byVariable.get(call[2])
      if (owner !== undefined && tablesInScope.has(call[2]) && owner !== own) {
        violations.push({ kind: 'write', file: file.path, detail: `${call[1]}s ${call[2]}, owned by ${owner}` })
      }
    }
    for (const template of file.text.matchAll(SQL_TEMPLATE)) {
      for (const write of template[1].matchAll(RAW_WRITE)) {
        const owner = bySqlName.get(write[1])
        if (owner !== undefined && owner !== own) violations.push({ kind: 'write', file: file.path, detail: `raw SQL writes ${write[1]}, owned by ${owner}` })
      }
      // (f) raw SQL reads
      if (file.path.startsWith('server/db/')) continue
      for (const read of template[1].matchAll(RAW_READ)) {
        const owner = bySqlName.get(read[1])
        if (owner === undefined || owner === own || (READ_JOINS[file.path] ?? []).includes(variableOf.get(read[1]) ?? '')) continue
        violations.push({ kind: 'read', file: file.path, detail: `raw SQL reads ${read[1]}, owned by ${owner}: ask its service` })
      }
    }

    // (e) no capability decorates the instance, and none reaches the composition root
    if (own === 'server') continue
    for (const match of file.text.matchAll(/\.decorate\(\s*'(\w+)'/g)) {
      violations.push({ kind: 'decorator', file: file.path, detail: `decorates the instance with ${match[1]}: hand it over as the capability's port (server/capability.ts)` })
    }
    for (const { target } of imported) {
      if (target === 'server/app.ts') violations.push({ kind: 'import', file: file.path, detail: 'imports the composition root (server/app.ts): a capability receives the ports it needs' })
    }
  }
  // (d) cycles
  for (const cycle of findCycles(fileGraph)) violations.push({ kind: 'cycle', file: cycle[0], detail: `file import cycle: ${cycle.join(' → ')}` })
  for (const cycle of findCycles(capabilityGraph)) violations.push({ kind: 'cycle', file: cycle[0], detail: `capability import cycle: ${cycle.join(' → ')}` })
  // (e) the ports' graph, type-only imports included
  for (const cycle of findCycles(capabilityDependencies(files))) violations.push({ kind: 'cycle', file: cycle[0], detail: `capability port cycle: ${cycle.join(' → ')}` })
  return violations
}

/**
 * capability → the capabilities it depends on: every import of another capability's module, type-only
 * included (a port is a type), from plugins/ only. What docs/architecture.md's "Who calls whom" shows.
 */
export function capabilityDependencies (files: SourceFile[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const file of files) {
    const own = unitOf(file.path)
    if (own === null || own === 'server') continue
    if (!graph.has(own)) graph.set(own, new Set())
    for (const { target } of importsOf(file)) {
      const other = unitOf(target)
      // the session guards' own files (sessions, revocations, CLI tokens) are theirs
      const sameFolder = capabilityOf(target) === capabilityOf(file.path)
      if (other !== null && other !== own && other !== 'server' && !sameFolder) graph.get(own)?.add(other)
    }
  }
  return graph
}

/** The graph as docs/architecture.md prints it: a line per capability, in name order, what it needs. */
export function renderDependencies (graph: Map<string, Set<string>>): string {
  const names = [...graph.keys()].sort()
  const width = Math.max(...names.map((name) => name.length))
  return names.map((name) => {
    const needs = [...graph.get(name) ?? []].sort()
    return `${name.padEnd(width)} ──▶ ${needs.length === 0 ? '(none)' : needs.join(', ')}`
  }).join('\n')
}

/** Every .ts file under the given folders of the repository, with paths relative to `root`. */
function readTsFiles (root: string, folders: string[]): SourceFile[] {
  const files: SourceFile[] = []
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.ts')) files.push({ path: relative(root, path), text: readFileSync(path, 'utf8') })
    }
  }
  for (const folder of folders) walk(folder)
  return files
}

/**
 * A planted tree (test/architecture/fixtures/boundaries/<case>): `x.ts.fixture` files read as `x.ts`,
 * so that neither tsc, eslint nor madge takes them for the project's code.
 */
export function readFixtureTree (root: string): SourceFile[] {
  const files: SourceFile[] = []
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.ts.fixture')) files.push({ path: relative(root, path).replace(/\.fixture$/, ''), text: readFileSync(path, 'utf8') })
    }
  }
  walk(root)
  return files
}

/** Every .ts file under plugins/ and server/ of the repository. */
export function readSources (root: string): SourceFile[] {
  return readTsFiles(root, [join(root, 'plugins'), join(root, 'server')])
}

/**
 * (e) The reference apps (examples/<name>/src) are built only on the SDK and fastify (DESIGN §3): they
 * import their own files, node built-ins and EXAMPLE_PACKAGES, never server/, plugins/ or test/ code.
 * Type-only imports count too, and so do `import()` expressions.
 */
export const EXAMPLE_PACKAGES = ['@app-platform/sdk', '@app-platform/sdk/browser', 'fastify', 'esbuild']

export function checkExampleImports (files: SourceFile[]): Violation[] {
  const violations: Violation[] = []
  for (const file of files) {
    const own = /^examples\/[^/]+\//.exec(file.path)?.[0]
    if (own === undefined) continue
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
    const specifiers: string[] = []
    const visit = (node: ts.Node): void => {
      const declared = (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) ? node.moduleSpecifier : undefined
      if (declared !== undefined && ts.isStringLiteral(declared)) specifiers.push(declared.text)
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = node.arguments
        specifiers.push(argument !== undefined && ts.isStringLiteral(argument) ? argument.text : '<computed>')
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
    for (const specifier of specifiers) {
      const allowed = specifier.startsWith('.')
        ? normalize(join(dirname(file.path), specifier)).startsWith(own)
        : specifier.startsWith('node:') || EXAMPLE_PACKAGES.includes(specifier)
      if (!allowed) violations.push({ kind: 'import', file: file.path, detail: `a reference app imports only its own files, node: built-ins and ${EXAMPLE_PACKAGES.join(', ')}; found ${specifier}` })
    }
  }
  return violations
}

/** Every .ts file under examples/<name>/src. */
export function readExampleSources (root: string): SourceFile[] {
  const sources = readdirSync(join(root, 'examples')).map((example) => join(root, 'examples', example, 'src'))
  return readTsFiles(root, sources.filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory() === true))
}
