import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ERROR_CODES } from '../../sdk/src/contract/error-codes.ts'
import { ERROR_CODES_FILE, declaredCodes, renderErrorCodes } from '../../openapi/error-codes.ts'
import { notFound } from '../../plugins/commerce/errors.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function sources (dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
  })
}

const files = [...sources(join(ROOT, 'server')), ...sources(join(ROOT, 'plugins'))]
  .map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }))

const HELPERS = 'badRequest|unauthorized|forbidden|notFound|conflict|unprocessable|tooManyRequests|invalidToken|missingToken|insufficientScope|httpError|fieldError|errorBody|oauthError|authorizeError|redirectedError|refused|refuse'
/** The first argument of a call whose `(` is at `open` (after a leading status number), brackets balanced. */
function codeArgument (text: string, open: number): string {
  let depth = 0
  let start = open + 1
  for (let i = open + 1; i < text.length; i++) {
    const char = text[i]
    if ('([{'.includes(char)) depth++
    else if (')]}'.includes(char)) { if (depth === 0) return text.slice(start, i); depth-- } else if (char === ',' && depth === 0) {
      const argument = text.slice(start, i)
      if (!/^\s*(\d+|statusCode|status)\s*$/.test(argument)) return argument
      start = i + 1
    }
  }
  return ''
}

const SNAKE = /'([a-z][a-z0-9]*(?:_[a-z0-9]+)+)'/g
/** The code argument of every error made in the source, and every `code: '…'` of a problem. */
function codesInSource (): Array<{ code: string, file: string }> {
  const found: Array<{ code: string, file: string }> = []
  const call = new RegExp(`\\b(?:${HELPERS})\\(`, 'g')
  for (const { path, text } of files) {
    for (const match of text.matchAll(call)) {
      const argument = codeArgument(text, (match.index ?? 0) + match[0].length - 1)
      for (const literal of argument.matchAll(SNAKE)) found.push({ code: literal[1], file: path })
    }
    for (const literal of text.matchAll(/\bcode: '([a-z][a-z0-9]*(?:_[a-z0-9]+)+)'/g)) found.push({ code: literal[1], file: path })
  }
  return found
}

t.test('the contract lists exactly the codes declared in server/http-errors.ts and plugins/*/errors.ts', async (t) => {
  t.equal(readFileSync(ERROR_CODES_FILE, 'utf8'), await renderErrorCodes(), 'sdk/src/contract/error-codes.ts is current (run `npm run openapi`)')
  const declared = await declaredCodes()
  t.ok(declared.length > 100, `${declared.length} codes`)
  for (const { code } of declared) t.match(code, /^[a-z][a-z0-9]*(_[a-z0-9]+)+$|^[a-z]+$/, `${code} is snake_case`)
})

t.test('every code the source sends is declared, and every declared code is sent somewhere', async (t) => {
  const used = codesInSource()
  t.ok(used.length > 150, `${used.length} error codes in the source`)
  for (const { code, file } of used) t.ok(code in ERROR_CODES, `${code} (${file}) is declared`)
  const usedCodes = new Set(used.map((u) => u.code))
  const keywordCodes = new Set([...readFileSync(join(ROOT, 'server/validation.ts'), 'utf8').matchAll(/: '(field_[a-z_]+)'/g)].map((m) => m[1]))
  for (const code of Object.keys(ERROR_CODES)) {
    t.ok(usedCodes.has(code) || keywordCodes.has(code) || /^(field_invalid|payload_too_large|unsupported_media_type|not_acceptable|malformed_json|bad_request|not_found|method_not_allowed|rate_limited|internal_error)$/.test(code),
      `${code} is sent somewhere`)
  }
})

t.test('every declared code is in the OpenAPI document, on the error body and on problem items', async (t) => {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi/openapi.json'), 'utf8'))
  const schemas = document.components.schemas
  const body = Object.values(schemas).find((schema: any) => schema.title === 'ErrorBody' || schema.$id === 'ErrorBody' || schema.description === 'Every error has this shape.') as any
  t.ok(body !== undefined, 'the shared error schema')
  t.same(body.required.includes('code'), true, 'code is required')
  t.same([...body.properties.code.enum].sort(), Object.keys(ERROR_CODES).sort())
  const item = Object.values(schemas).find((schema: any) => schema.properties?.path !== undefined && schema.properties?.code?.enum !== undefined) as any
  t.same([...item.properties.code.enum].sort(), Object.keys(ERROR_CODES).sort(), 'items of `errors` too')
})

t.test('a code a capability does not declare does not compile', async (t) => {
  // @ts-expect-error `no_such_code` is in no catalog: `npx tsc --noEmit` fails if this line compiles
  const error = notFound('no_such_code', 'Product')
  t.equal(error.statusCode, 404)
  t.equal(notFound('product_not_found', 'Product').code, 'product_not_found')
})
