import { Ajv, type ValidateFunction } from 'ajv'
import formatsPlugin from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import type { ErrorItem, ServerErrorCode } from './http-errors.ts'

// ajv-formats is CommonJS: its default export arrives wrapped under ESM
export const addFormats = ((formatsPlugin as unknown as { default?: unknown }).default ?? formatsPlugin) as (ajv: Ajv, formats?: string[]) => Ajv

function createAjv (coerceTypes: false | 'array'): Ajv {
  // Unknown body properties are refused, never silently dropped; TypeBox's keywords are not Ajv's: strict off.
  return addFormats(new Ajv({ removeAdditional: false, useDefaults: true, coerceTypes, allErrors: false, strict: false }))
}

/** Bodies are JSON with real types: a number where a string belongs is a 400, not coerced. */
const bodyAjv = createAjv(false)
/** Query strings and path params are text: "2" must become the integer 2. */
const textAjv = createAjv('array')

/**
 * An unknown query parameter is ignored on every operation alike, where an unknown body field is
 * refused (docs/decisions.md, "What outside clients still trip on"): a query schema's
 * `additionalProperties: false` (at the top or in an `allOf` member) is left out of validation.
 */
function tolerantQuery (schema: Record<string, unknown>): Record<string, unknown> {
  const { additionalProperties, ...rest } = schema
  const open = additionalProperties === false ? rest : schema
  return Array.isArray(open.allOf) ? { ...open, allOf: open.allOf.map((member) => tolerantQuery(member as Record<string, unknown>)) } : open
}

/**
 * The path (`root/key/…`) of a string in a parsed JSON value for which `bad` holds (with `keys`, an
 * object key counts too and names its object), or null. Iterative: a deeply nested body must not
 * exhaust the stack.
 */
export function findString (value: unknown, bad: (text: string) => boolean, root = '', keys = false): string | null {
  const stack: Array<[unknown, string]> = [[value, root]]
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string]
    if (typeof current === 'string') {
      if (bad(current)) return path
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (keys && bad(key)) return path
        stack.push([child, `${path}/${key}`])
      }
    }
  }
  return null
}

const compile = (schema: object, httpPart?: string): ValidateFunction =>
  httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(httpPart === 'querystring' ? tolerantQuery(schema as Record<string, unknown>) : schema)

/**
 * Validators are compiled once per process for each schema shape and part (Ajv's own cache keys on the
 * schema object, and most route schemas are built anew for each app instance): every app the process
 * builds reuses them, and Ajv does not keep a copy per build. A shape is compiled on the first request that
 * needs it, not when the routes are made ready: a start compiled every route's schemas before it could
 * answer, most of them for routes it would not serve for a while (#43, docs/decisions.md "Schemas compiled
 * on first use"). `compilePendingSchemas` compiles what is left (a test holds that every one compiles).
 */
const validators = new Map<string, ValidateFunction>()
/** The shapes asked for and not compiled yet, each with the first schema, part and route it came with. */
const pendingValidators = new Map<string, { schema: object, httpPart?: string, route: string }>()

function validatorOf (key: string): ValidateFunction {
  let validate = validators.get(key)
  if (validate === undefined) {
    const { schema, httpPart } = pendingValidators.get(key) as { schema: object, httpPart?: string }
    validate = compile(schema, httpPart)
    validators.set(key, validate)
    pendingValidators.delete(key)
  }
  return validate
}

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart, method, url }) => {
  const key = `${httpPart ?? ''}:${JSON.stringify(schema)}`
  const known = validators.get(key)
  if (known !== undefined) return known
  if (!pendingValidators.has(key)) pendingValidators.set(key, { schema: schema as object, httpPart, route: `${method} ${url}` })
  let validate: ValidateFunction | undefined
  const compiled = (): ValidateFunction => (validate ??= validatorOf(key))
  // Ajv's function as fastify calls it: with the parent to coerce a root value in (which it decides on
  // `schemaEnv`), and its `errors` read after a failed call
  const lazy = function (this: unknown, data: unknown, context?: Parameters<ValidateFunction>[1]) {
    return compiled().call(this, data, context)
  }
  Object.defineProperties(lazy, {
    schemaEnv: { get: () => compiled().schemaEnv },
    schema: { get: () => compiled().schema },
    errors: { get: () => validate?.errors ?? null }
  })
  return lazy as ValidateFunction
}

/**
 * Compiles every validator asked for and not used yet (server/schema-compilers.ts's compilePendingSchemas);
 * returns how many. One that cannot compile throws, naming its route and part.
 */
export function compilePendingValidators (): number {
  const pending = [...pendingValidators]
  for (const [key, { httpPart, route }] of pending) {
    try {
      validatorOf(key)
    } catch (error) {
      throw new Error(`${route}: the ${httpPart ?? 'request'} schema does not compile: ${(error as Error).message}`)
    }
  }
  return pending.length
}

/** One problem of an Ajv validation (fastify's validation errors have the same fields). */
export interface SchemaProblem { keyword: string, instancePath: string, params: Record<string, any>, message?: string }

/** Codes of one validation problem, by the schema keyword that failed. */
const KEYWORD_CODES: Record<string, ServerErrorCode> = {
  required: 'field_required',
  type: 'field_type',
  minimum: 'field_too_small',
  exclusiveMinimum: 'field_too_small',
  maximum: 'field_too_large',
  exclusiveMaximum: 'field_too_large',
  minLength: 'field_too_short',
  maxLength: 'field_too_long',
  minItems: 'field_too_few',
  maxItems: 'field_too_many',
  pattern: 'field_pattern',
  format: 'field_format',
  enum: 'field_not_allowed',
  const: 'field_not_allowed',
  additionalProperties: 'field_unknown'
}

/** The problems of a schema validation as {in, path, message, code}: the path points at the field itself. */
export function validationItems (problems: SchemaProblem[], part?: string): ErrorItem[] {
  const where = (part ?? 'body') as ErrorItem['in']
  return problems.map((problem) => {
    const params = problem.params as Record<string, unknown>
    // a missing or unknown property is a problem of the property, not of the object holding it
    const child = typeof params.missingProperty === 'string' ? params.missingProperty : typeof params.additionalProperty === 'string' ? params.additionalProperty : null
    const path = child === null ? problem.instancePath : `${problem.instancePath}/${child}`
    const message = problem.keyword === 'required' ? 'is required' : problem.keyword === 'additionalProperties' ? 'is not a known field' : problem.message ?? 'is not valid'
    return { in: where, path, message, code: KEYWORD_CODES[problem.keyword] ?? 'field_invalid' }
  })
}
