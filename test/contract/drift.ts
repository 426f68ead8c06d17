import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { APP_CATEGORIES, EVENT_NAMES, HOOK_POINTS, SCOPES } from '../../sdk/src/contract/index.ts'

/**
 * One source for the contract's lists (DESIGN §16): a file outside sdk/src/contract that writes out
 * a list of scopes, events, categories or hook points (an array, a union type or an object's keys
 * holding at least half of the contract's list, and at least three of its names) is a second copy
 * that can drift. Shorter lists are data (an app's requested scopes, a test's events), not copies;
 * a map typed `Record<Scope, …>` is tied to the contract by the compiler.
 */
export const CONTRACT_LISTS: Record<string, readonly string[]> = {
  scopes: SCOPES, events: EVENT_NAMES, categories: APP_CATEGORIES, 'hook points': HOOK_POINTS
}

export interface SourceFile { path: string, text: string }
export interface Drift { file: string, line: number, list: string, names: string[] }

const threshold = (list: readonly string[]) => Math.max(3, Math.ceil(list.length / 2))

/** A map typed by the contract (`Record<Scope, …>`, `satisfies Record<HookPoint, …>`): the compiler keeps its keys in step. */
const KEYED_BY_CONTRACT = /\bRecord<\s*(Scope|EventName|HookPoint|AppCategory|SubscribableEvent)\b/
function keyedByContract (node: ts.ObjectLiteralExpression, source: ts.SourceFile): boolean {
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) && parent.type !== undefined) return KEYED_BY_CONTRACT.test(parent.type.getText(source))
  if (ts.isSatisfiesExpression(parent) || ts.isAsExpression(parent)) return KEYED_BY_CONTRACT.test(parent.type.getText(source))
  return false
}

function literalNames (nodes: readonly ts.Node[]): string[] {
  const names: string[] = []
  for (const node of nodes) {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) names.push(node.text)
    else if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) names.push(node.literal.text)
    else if (ts.isPropertyAssignment(node) || ts.isPropertySignature(node)) {
      if (ts.isStringLiteral(node.name) || ts.isIdentifier(node.name)) names.push(node.name.text)
    }
  }
  return names
}

export function findDrift (files: SourceFile[]): Drift[] {
  const found: Drift[] = []
  for (const file of files) {
    const kind = file.path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind)
    const visit = (node: ts.Node): void => {
      let members: readonly ts.Node[] | null = null
      if (ts.isArrayLiteralExpression(node)) members = node.elements
      else if (ts.isUnionTypeNode(node)) members = node.types
      else if (ts.isObjectLiteralExpression(node) && !keyedByContract(node, source)) members = node.properties
      else if (ts.isTypeLiteralNode(node)) members = node.members
      if (members !== null) {
        const names = new Set(literalNames(members))
        for (const [list, values] of Object.entries(CONTRACT_LISTS)) {
          const hits = values.filter((value) => names.has(value))
          if (hits.length >= threshold(values)) {
            found.push({ file: file.path, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, list, names: [...names] })
          }
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

/** Where the server, the plugins, the admin UI and the SDK keep their source; the contract itself excluded. */
export function readContractUsers (root: string): SourceFile[] {
  const files: SourceFile[] = []
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      const rel = relative(root, path)
      if (rel === join('sdk', 'src', 'contract') || name === 'node_modules' || name === 'dist' || name === 'migrations') continue
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(ts|tsx)$/.test(name)) files.push({ path: rel, text: readFileSync(path, 'utf8') })
    }
  }
  for (const folder of ['server', 'plugins', 'admin-ui/src', 'sdk/src', 'openapi', 'bench']) walk(join(root, folder))
  return files
}
