import { dirname, join, normalize } from 'node:path'
import ts from 'typescript'

/**
 * The unit tier's rule (docs/testing.md): a `*.unit.test.ts` file tests pure code. Neither it nor
 * anything it loads at run time (its relative imports, followed through the tree; type-only imports
 * are erased and do not count) reaches a database, the app builder or the integration helpers:
 * FORBIDDEN_FILES (paths from the repository root) and FORBIDDEN_PACKAGES.
 */
export const FORBIDDEN_FILES: Record<string, string> = {
  'server/app.ts': 'the app builder',
  'server/main.ts': 'the server',
  'server/db/client.ts': 'the database client',
  'test/helper.ts': 'the integration helpers (apps on databases)',
  'test/database.ts': 'the test databases',
  'test/templates.ts': 'the database templates'
}
export const FORBIDDEN_PACKAGES: Record<string, string> = {
  '@electric-sql/pglite': 'PGlite',
  pg: 'the PostgreSQL driver',
  postgres: 'a PostgreSQL driver',
  'pg-boss': 'the job queue (on the database)'
}

export interface Violation { file: string, chain: string[], reason: string }

interface Imports { files: string[], packages: string[] }

/** The run-time imports of a file: static imports and re-exports that are not type-only, and `import('literal')`. */
export function runtimeImports (path: string, text: string): Imports {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const specifiers: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const bindings = clause?.namedBindings
      const onlyTypes = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined &&
        ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly)))
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) specifiers.push(node.moduleSpecifier.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments
      if (specifier !== undefined && ts.isStringLiteralLike(specifier)) specifiers.push(specifier.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  const files: string[] = []
  const packages: string[] = []
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) files.push(normalize(join(dirname(path), specifier)))
    else if (!specifier.startsWith('node:')) packages.push(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0])
  }
  return { files, packages }
}

/**
 * Follows each unit file's run-time imports (breadth first, so the chain shown is a shortest one) and
 * names every forbidden file or package it reaches. `read` gives a file's text by its path from the
 * repository root, or null when there is none (a JSON file, a generated one).
 */
export function unitTierViolations (unitFiles: string[], read: (path: string) => string | null): Violation[] {
  const violations: Violation[] = []
  const cache = new Map<string, Imports | null>()
  const importsOf = (path: string): Imports | null => {
    if (!cache.has(path)) {
      const text = path.endsWith('.ts') || path.endsWith('.tsx') ? read(path) : null
      cache.set(path, text === null ? null : runtimeImports(path, text))
    }
    return cache.get(path) ?? null
  }
  for (const file of unitFiles) {
    const chainTo = new Map<string, string[]>([[file, [file]]])
    const queue = [file]
    while (queue.length > 0) {
      const current = queue.shift() as string
      const chain = chainTo.get(current) as string[]
      const reason = FORBIDDEN_FILES[current]
      if (reason !== undefined) { violations.push({ file, chain, reason }); continue }
      const imports = importsOf(current)
      if (imports === null) continue
      for (const name of imports.packages) {
        const packageReason = FORBIDDEN_PACKAGES[name]
        if (packageReason !== undefined) violations.push({ file, chain: [...chain, name], reason: packageReason })
      }
      for (const next of imports.files) {
        if (chainTo.has(next)) continue
        chainTo.set(next, [...chain, next])
        queue.push(next)
      }
    }
  }
  return violations
}
