import type { JsonSchemaProperty, SettingsSchema } from './admin-types.ts'

const FORMATS: Record<string, { test: (value: string) => boolean, message: string }> = {
  color: { test: (value) => /^#[0-9a-fA-F]{6}$/.test(value), message: 'Must be a colour like #1a2b3c.' },
  uri: { test: (value) => { try { return new URL(value).protocol !== '' } catch { return false } }, message: 'Must be a full address, like https://example.com.' },
  'date-time': { test: (value) => !Number.isNaN(Date.parse(value)), message: 'Must be a date and time.' }
}

function typeProblem (property: JsonSchemaProperty, value: unknown): string | null {
  switch (property.type) {
    case 'integer': return typeof value === 'number' && Number.isInteger(value) ? null : 'Must be a whole number.'
    case 'number': return typeof value === 'number' && Number.isFinite(value) ? null : 'Must be a number.'
    case 'boolean': return typeof value === 'boolean' ? null : 'Must be on or off.'
    case 'string': return typeof value === 'string' ? null : 'Must be text.'
    default: return null
  }
}

/** The first problem of one setting, as a sentence for the merchant; null when it fits. */
function problemOf (property: JsonSchemaProperty, value: unknown): string | null {
  const type = typeProblem(property, value)
  if (type !== null) return type
  if (typeof value === 'number') {
    if (property.minimum !== undefined && value < property.minimum) return `Must be at least ${property.minimum}.`
    if (property.maximum !== undefined && value > property.maximum) return `Must be at most ${property.maximum}.`
    if (property.exclusiveMinimum !== undefined && value <= property.exclusiveMinimum) return `Must be more than ${property.exclusiveMinimum}.`
    if (property.exclusiveMaximum !== undefined && value >= property.exclusiveMaximum) return `Must be less than ${property.exclusiveMaximum}.`
  }
  if (typeof value === 'string') {
    if (property.minLength !== undefined && [...value].length < property.minLength) return `Must be at least ${property.minLength} characters.`
    if (property.maxLength !== undefined && [...value].length > property.maxLength) return `Must be at most ${property.maxLength} characters.`
    if (property.pattern !== undefined) {
      try { if (!new RegExp(property.pattern, 'u').test(value)) return 'Is not in the expected form.' } catch { /* a pattern only RE2 reads: the server checks it */ }
    }
    const format = property.format === undefined ? undefined : FORMATS[property.format]
    if (format !== undefined && !format.test(value)) return format.message
  }
  if (property.enum !== undefined && !property.enum.some((allowed) => allowed === value)) return `Must be one of ${property.enum.map(String).join(', ')}.`
  return null
}

/**
 * The settings' problems by setting name, checked against the app's settings schema with the keywords
 * a settings form renders (the server checks the whole schema again on save).
 */
export function settingsProblems (schema: SettingsSchema, values: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {}
  const required = new Set(schema.required ?? [])
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = values[name]
    if (value === undefined || value === '') {
      if (required.has(name)) problems[name] = 'Is required.'
      continue
    }
    const problem = problemOf(property, value)
    if (problem !== null) problems[name] = problem
  }
  return problems
}
