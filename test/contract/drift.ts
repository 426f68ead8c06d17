import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { APP_CATEGORIES, EVENT_NAMES, HOOK_POINTS, ORDER_STATUSES, PAYMENT_STATUSES, SCOPES } from '../../sdk/src/contract/index.ts'
import * as resources from '../../sdk/src/contract/resources.ts'
import * as appResources from '../../sdk/src/contract/apps.ts'

/**
 * One source for the contract's lists (DESIGN §16): a file outside sdk/src/contract that writes out
 * a list of scopes, events, categories or hook points (an array, a union type or an object's keys
 * holding at least half of the contract's list, and at least three of its names), or the whole list
 * of order or payment statuses, is a second copy that can drift. Shorter lists are data (an app's requested scopes, a test's events), not copies;
 * a map typed `Record<Scope, …>` is tied to the contract by the compiler.
 */
export const CONTRACT_LISTS: Record<string, readonly string[]> = {
  scopes: SCOPES, events: EVENT_NAMES, categories: APP_CATEGORIES, 'hook points': HOOK_POINTS, 'order statuses': ORDER_STATUSES, 'payment statuses': PAYMENT_STATUSES
}

export interface SourceFile { path: string, text: string }
export interface Drift { file: string, line: number, list: string, names: string[] }

/** Statuses are short lists whose subsets are meaningful (a state machine's outcomes): only the whole list is a copy. */
const WHOLE_LISTS = new Set(['order statuses', 'payment statuses'])
const threshold = (name: string, list: readonly string[]) => WHOLE_LISTS.has(name) ? list.length : Math.max(3, Math.ceil(list.length / 2))

/** A map typed by the contract (`Record<Scope, …>`, `satisfies Record<HookPoint, …>`): the compiler keeps its keys in step. */
const KEYED_BY_CONTRACT = /\bRecord<\s*(Scope|EventName|HookPoint|AppCategory|SubscribableEvent|OrderStatus|PaymentStatus)\b/
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
          if (hits.length >= threshold(list, values)) {
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

/**
 * One source for the resources (DESIGN §16): the objects of sdk/src/contract/resources.ts and apps.ts, by title
 * and field names. Elsewhere, an interface or object type named after a resource, or a definition of
 * a shape (an interface, an object type, the properties of a `Type.Object`) with the fields of a
 * resource of five fields or more (its `id` if it has one; three quarters of the resource's fields,
 * making three quarters of the definition's), is a second copy that can drift. Smaller resources
 * (Customer, WebhookTestResult) are checked by name only: their few fields are common words. Values (a serializer's object literal) and request bodies
 * (a `Type.Object` with `additionalProperties: false`; no `id`) are not definitions of a resource.
 */
export const CONTRACT_RESOURCES: Record<string, readonly string[]> = Object.fromEntries(
  [...Object.values(resources as Record<string, unknown>), ...Object.values(appResources as Record<string, unknown>)]
    .filter((value): value is { title: string, type: string, properties: Record<string, unknown> } =>
      typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'object' &&
      typeof (value as { title?: unknown }).title === 'string' && typeof (value as { properties?: unknown }).properties === 'object')
    .map((schema) => [schema.title, Object.keys(schema.properties)])
)

export interface ResourceCopy { file: string, line: number, resource: string }

/** The properties of a `Type.Object(…)` that is not a request body (`additionalProperties: false`). */
function isResponseTypeObject (node: ts.Node, source: ts.SourceFile): boolean {
  const call = node.parent
  if (!ts.isCallExpression(call) || call.arguments[0] !== node) return false
  if (!ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'Object') return false
  if (!ts.isIdentifier(call.expression.expression) || call.expression.expression.text !== 'Type') return false
  return !/additionalProperties:\s*false/.test(call.arguments[1]?.getText(source) ?? '')
}

function sameFields (fields: Set<string>, resourceFields: readonly string[]): boolean {
  if (resourceFields.length < 5 || (resourceFields.includes('id') && !fields.has('id'))) return false
  const hits = resourceFields.filter((field) => fields.has(field)).length
  return hits >= resourceFields.length * 0.75 && hits >= fields.size * 0.75
}

function declaredName (node: ts.Node): string | null {
  if (ts.isInterfaceDeclaration(node)) return node.name.text
  if (ts.isTypeLiteralNode(node) && ts.isTypeAliasDeclaration(node.parent)) return node.parent.name.text
  return null
}

export function findResourceCopies (files: SourceFile[]): ResourceCopy[] {
  const found: ResourceCopy[] = []
  for (const file of files) {
    const kind = file.path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind)
    const visit = (node: ts.Node): void => {
      let members: readonly ts.Node[] | null = null
      if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) members = node.members
      else if (ts.isObjectLiteralExpression(node) && isResponseTypeObject(node, source)) members = node.properties
      if (members !== null) {
        const fields = new Set(literalNames(members))
        const name = declaredName(node)
        for (const [resource, resourceFields] of Object.entries(CONTRACT_RESOURCES)) {
          if (name === resource || sameFields(fields, resourceFields)) {
            found.push({ file: file.path, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, resource })
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
