import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { RegExpEngine } from 'ajv/dist/types/index.js'
import { RE2JS } from 're2js'
import { addFormats, findString } from '../../../server/validation.ts'
import { clockedFind, PATTERN_LIMITS, PatternWorkExceeded, withPatternClock } from './pattern-budget.ts'
import { MAX_SETTING_VALUES, measurePatterns, schemaLimitProblem, schemaPatternProblem, tooManyValues } from './schema-limits.ts'
import { ManifestStructureSchema, EMBED_POSITIONS, HOOK_POINTS, HOOK_SCOPES, SETTING_FORMATS, type Manifest, type HookPoint } from './schemas.ts'

export interface Problem { path: string, message: string }

const SETTING_TYPES = ['string', 'number', 'integer', 'boolean']

/** Ajv that checks the manifest's structure, reporting every error. */
const structure = new Ajv({ allErrors: true, strict: false })
const checkStructure = structure.compile(ManifestStructureSchema)

/** Longest string a setting may hold: settings are configuration, and matching stays cheap. */
export const MAX_SETTING_LENGTH = 10_000

/**
 * `pattern` and `patternProperties` of app-supplied schemas run on RE2 (re2js, linear time): a
 * backtracking pattern such as `^(a+)+$` cannot stall the event loop. RE2 has no backreferences
 * or lookaround; such a pattern does not compile and the manifest is refused. Ajv shares a compiled
 * pattern between schemas by its `toString()`: each one names its own source, or the first pattern an
 * Ajv compiled would judge every later schema's values.
 */
const linearRegExp: RegExpEngine = Object.assign((pattern: string, flags: string) => {
  const re = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0)
  return { test: (input: string) => clockedFind(re, input), toString: () => JSON.stringify([pattern, flags]) }
}, { code: 'RE2JS' })

/**
 * Ajv for merchant settings: the formats the admin panel can render, with `color` as #rgb/#rrggbb.
 * Without allErrors: validation stops at the first error, so a failing input cannot walk every branch.
 */
export function createSettingsAjv (): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false, code: { regExp: linearRegExp } })
  addFormats(ajv, ['date-time', 'uri'])
  ajv.addFormat('color', /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/)
  return ajv
}
let settingsAjv = createSettingsAjv()
const MAX_CACHED_VALIDATORS = 500
const validators = new Map<string, ValidateFunction>()
/** Why a cached validator refuses every input: the schema broke a limit. */
const refusals = new WeakMap<ValidateFunction, string>()

/**
 * The compiled validator of a settings schema, cached by the schema's JSON: compiled once when the
 * manifest is saved, then reused. Schemas arrive as fresh objects from the database on every request
 * and Ajv caches by object identity, so compiling each one would grow without bound; past the cap the
 * cache and its Ajv start over. A schema stored before the limits and breaking them refuses every input;
 * its patterns are timed here too (pattern-budget.ts), once per schema and process.
 */
export function settingsValidator (schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema)
  let validate = validators.get(key)
  if (validate === undefined) {
    if (validators.size >= MAX_CACHED_VALIDATORS) {
      validators.clear()
      settingsAjv = createSettingsAjv()
    }
    const problem = schemaLimitProblem(schema) ?? schemaPatternProblem(schema, MAX_SETTING_LENGTH)
    validate = problem === null ? capInput(settingsAjv.compile(schema)) : refuseAll(problem)
    validators.set(key, validate)
  }
  return validate
}

function refuseAll (problem: string): ValidateFunction {
  const refuse = (() => false) as unknown as ValidateFunction
  refuse.errors = [{ instancePath: '', schemaPath: '#', keyword: 'schemaLimits', params: {}, message: `the app's settingsSchema ${problem}` }]
  refusals.set(refuse, problem)
  return refuse
}

function inputError (instancePath: string, keyword: string, limit: number, message: string): ErrorObject {
  return { instancePath, schemaPath: `#/${keyword}`, keyword, params: { limit }, message }
}

/**
 * `validate`, refusing first any input with more than MAX_SETTING_VALUES values or a string (or key)
 * past MAX_SETTING_LENGTH, whatever the app's schema allows: the work stays bounded by schema × input.
 * Pattern matching runs on a clock: past PATTERN_LIMITS.validationMs the input is refused, not matched.
 */
function capInput (validate: ValidateFunction): ValidateFunction {
  const capped = ((data: unknown) => {
    if (tooManyValues(data)) {
      capped.errors = [inputError('', 'maxValues', MAX_SETTING_VALUES, `must NOT have more than ${MAX_SETTING_VALUES} values in all`)]
      return false
    }
    const path = findString(data, (text) => text.length > MAX_SETTING_LENGTH, '', true)
    if (path !== null) {
      capped.errors = [inputError(path, 'maxLength', MAX_SETTING_LENGTH, `must NOT have more than ${MAX_SETTING_LENGTH} characters`)]
      return false
    }
    try {
      const valid = withPatternClock(() => validate(data))
      capped.errors = validate.errors
      return valid
    } catch (error) {
      if (!(error instanceof PatternWorkExceeded)) throw error
      capped.errors = [inputError('', 'patternWork', PATTERN_LIMITS.validationMs, `needs more than ${PATTERN_LIMITS.validationMs} ms of pattern matching; shorten the values`)]
      return false
    }
  }) as ValidateFunction
  return Object.assign(capped, { schema: validate.schema, schemaEnv: validate.schemaEnv })
}

function ajvProblems (errors: ErrorObject[] | null | undefined, prefix: string): Problem[] {
  return (errors ?? []).map((error) => ({
    path: `${prefix}${error.instancePath}` || '/',
    message: error.keyword === 'additionalProperties'
      ? `unknown property "${(error.params as { additionalProperty: string }).additionalProperty}"`
      : error.message ?? 'is invalid'
  }))
}

/** A settings schema must compile, be an object of supported field types and formats. */
function checkSettingsSchema (schema: Record<string, unknown>, path: string): Problem[] {
  const problems: Problem[] = []
  if (schema.type !== 'object') problems.push({ path, message: 'settingsSchema must have type "object"' })
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  for (const [name, property] of Object.entries(properties)) {
    if (typeof property !== 'object' || property === null) continue
    if (typeof property.type === 'string' && !SETTING_TYPES.includes(property.type)) {
      problems.push({ path: `${path}/properties/${name}`, message: `type must be one of ${SETTING_TYPES.join(', ')}` })
    }
    if (property.format !== undefined && !(SETTING_FORMATS as readonly unknown[]).includes(property.format)) {
      problems.push({ path: `${path}/properties/${name}`, message: `format must be one of ${SETTING_FORMATS.join(', ')}` })
    }
  }
  const limit = schemaLimitProblem(schema)
  if (limit !== null) {
    problems.push({ path, message: `breaks a platform limit: the schema ${limit}` })
    return problems
  }
  try {
    const refusal = refusals.get(settingsValidator(schema))
    if (refusal !== undefined) problems.push({ path, message: `breaks a platform limit: the schema ${refusal}` })
  } catch (error) {
    problems.push({ path, message: `is not a valid JSON Schema: ${(error as Error).message}` })
  }
  return problems
}

function checkSettings (item: { settingsSchema?: Record<string, unknown>, defaultConfig?: Record<string, unknown> }, path: string): Problem[] {
  if (item.settingsSchema === undefined) {
    return item.defaultConfig !== undefined && Object.keys(item.defaultConfig).length > 0
      ? [{ path: `${path}/defaultConfig`, message: 'needs a settingsSchema to validate against' }]
      : []
  }
  const problems = checkSettingsSchema(item.settingsSchema, `${path}/settingsSchema`)
  if (problems.length > 0 || item.defaultConfig === undefined) return problems
  const validate = settingsValidator(item.settingsSchema)
  if (!validate(item.defaultConfig)) problems.push(...ajvProblems(validate.errors, `${path}/defaultConfig`).map((p) => ({ ...p, message: `does not match settingsSchema: ${p.message}` })))
  return problems
}

function isUrl (value: string, production: boolean): boolean {
  try {
    const url = new URL(value)
    return production ? url.protocol === 'https:' : url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

function duplicates<T> (items: Array<T | undefined>, key: (item: T) => string, path: string, name: string): Problem[] {
  const seen = new Map<string, number>()
  const problems: Problem[] = []
  for (const [index, item] of items.entries()) {
    if (item === undefined) continue
    const value = key(item)
    if (seen.has(value)) problems.push({ path: `${path}/${index}/${name}`, message: `duplicate ${name} "${value}" (also at index ${seen.get(value) as number})` })
    else seen.set(value, index)
  }
  return problems
}

export interface AppContext {
  scopes: string[]
  webhookUrl: string | null
  production: boolean
  /** App code never runs on, and the platform never calls, its own origins (DESIGN §14). */
  isPlatformOrigin?: (url: string) => boolean
}

const PLATFORM_URL = "must not point at the platform's own origins (API, admin or storefront)"

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Every problem of a manifest at once, the structure's and the rules' together (DESIGN §22): the rules
 * run on every part whose structure is sound (an item with a structure problem is skipped, keeping the
 * others' indexes), so one answer says all a developer must fix. Empty means valid.
 */
export function validateManifest (input: unknown, app: AppContext): Problem[] {
  const problems: Problem[] = checkStructure(input) ? [] : ajvProblems(checkStructure.errors, '')
  if (!isObject(input)) return problems
  const unsound = (path: string) => problems.some((problem) => problem.path === path || problem.path.startsWith(`${path}/`))
  const sound = <T>(items: unknown, path: string): Array<T | undefined> =>
    // a section refused as a whole (not a list, too long) is left out; an unsound item keeps its index
    Array.isArray(items) && !problems.some((problem) => problem.path === path) ? items.map((item: T, i) => unsound(`${path}/${i}`) ? undefined : item) : []
  const manifest = input as Manifest
  const blocks = sound<NonNullable<Manifest['blocks']>[number]>(manifest.blocks, '/blocks')
  const embeds = sound<NonNullable<Manifest['embeds']>[number]>(manifest.embeds, '/embeds')
  const hooks = sound<NonNullable<Manifest['hooks']>[number]>(manifest.hooks, '/hooks')
  const adminPages = sound<NonNullable<Manifest['adminPages']>[number]>(manifest.adminPages, '/adminPages')
  const url = (value: string | undefined, path: string) => {
    if (value !== undefined && !isUrl(value, app.production)) problems.push({ path, message: app.production ? 'must be an https:// URL' : 'must be an http(s):// URL' })
    else if (value !== undefined && app.isPlatformOrigin?.(value) === true) problems.push({ path, message: PLATFORM_URL })
  }

  if (isObject(manifest.settingsSchema) && !unsound('/settingsSchema')) problems.push(...checkSettingsSchema(manifest.settingsSchema, '/settingsSchema'))

  problems.push(...duplicates(blocks, (b) => b.blockType, '/blocks', 'blockType'))
  for (const [i, block] of blocks.entries()) {
    if (block === undefined) continue
    url(block.renderUrl, `/blocks/${i}/renderUrl`)
    problems.push(...checkSettings(block, `/blocks/${i}`))
  }

  problems.push(...duplicates(embeds, (e) => e.embedType, '/embeds', 'embedType'))
  for (const [i, embed] of embeds.entries()) {
    if (embed === undefined) continue
    const path = `/embeds/${i}`
    // the manifest is only known to be structurally sound here: kind and position may be any string
    const positions = (EMBED_POSITIONS as Record<string, readonly string[] | undefined>)[embed.kind]
    if (positions === undefined) {
      problems.push({ path: `${path}/kind`, message: 'must be GLOBAL_SCRIPT or FLOATING_WIDGET' })
    } else if (!positions.includes(embed.position)) {
      problems.push({ path: `${path}/position`, message: `must be ${positions.join(' or ')} for ${embed.kind}` })
    }
    if (embed.kind === 'GLOBAL_SCRIPT' && embed.scriptUrl === undefined) problems.push({ path: `${path}/scriptUrl`, message: 'is required for GLOBAL_SCRIPT' })
    if (embed.kind === 'FLOATING_WIDGET' && embed.renderUrl === undefined) problems.push({ path: `${path}/renderUrl`, message: 'is required for FLOATING_WIDGET' })
    url(embed.scriptUrl, `${path}/scriptUrl`)
    url(embed.renderUrl, `${path}/renderUrl`)
    problems.push(...checkSettings(embed, path))
  }

  problems.push(...duplicates(hooks, (h) => h.hookPoint, '/hooks', 'hookPoint'))
  for (const [i, hook] of hooks.entries()) {
    if (hook === undefined) continue
    const path = `/hooks/${i}`
    if (!(HOOK_POINTS as readonly string[]).includes(hook.hookPoint)) {
      problems.push({ path: `${path}/hookPoint`, message: `"${hook.hookPoint}" is not a hook point; use one of ${HOOK_POINTS.join(', ')}` })
    } else if (!app.scopes.includes(HOOK_SCOPES[hook.hookPoint as HookPoint])) {
      problems.push({ path: `${path}/hookPoint`, message: `${hook.hookPoint} needs the ${HOOK_SCOPES[hook.hookPoint as HookPoint]} scope` })
    }
    if (!hook.url.startsWith('/') || hook.url.startsWith('//')) problems.push({ path: `${path}/url`, message: 'must be a path starting with "/"' })
    if (app.webhookUrl === null) problems.push({ path: `${path}/url`, message: 'the app needs a webhookUrl for hooks to be called' })
    else if (app.isPlatformOrigin?.(app.webhookUrl + hook.url) === true) problems.push({ path: `${path}/url`, message: PLATFORM_URL })
    if (hook.failurePolicy !== undefined && hook.hookPoint !== 'order.validate') problems.push({ path: `${path}/failurePolicy`, message: 'applies to order.validate only' })
  }

  problems.push(...duplicates(adminPages, (p) => p.pageId, '/adminPages', 'pageId'))
  for (const [i, page] of adminPages.entries()) if (page !== undefined) url(page.renderUrl, `/adminPages/${i}/renderUrl`)

  return problems
}

/** Times the patterns of every settings schema of an unchecked manifest, letting other requests run between runs. */
export async function measureSettingsPatterns (input: unknown): Promise<void> {
  if (typeof input !== 'object' || input === null) return
  const { settingsSchema, blocks, embeds } = input as Record<string, unknown>
  const items = [...(Array.isArray(blocks) ? blocks : []), ...(Array.isArray(embeds) ? embeds : [])] as unknown[]
  const schemas = [settingsSchema, ...items.map((item) => typeof item === 'object' && item !== null ? (item as Record<string, unknown>).settingsSchema : undefined)]
  for (const schema of schemas) await measurePatterns(schema, MAX_SETTING_LENGTH)
}

/** Problems as one readable message: "/hooks/0/hookPoint: …; /embeds/1/scriptUrl: …" */
export function describeProblems (problems: Problem[]): string {
  return `Invalid manifest: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`
}
