import { useState } from 'preact/hooks'
import type { JsonSchemaProperty, SettingsSchema } from '../../lib/admin-types.ts'
import { settingsProblems } from '../../lib/settings-problems.ts'
import { FieldError } from '../states/index.tsx'
import styles from './style.module.css'

type Values = Record<string, unknown>

/** ISO instant ↔ the value of <input type="datetime-local"> (local time, minutes). */
export function toLocalInput (iso: unknown): string {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return ''
  const date = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}
export const fromLocalInput = (value: string): string | undefined => value === '' ? undefined : new Date(value).toISOString()

function Field ({ id, name, property, value, required, error, onChange }: {
  id: string, name: string, property: JsonSchemaProperty, value: unknown, required: boolean,
  /** The setting's problem, shown under it as the merchant types. */
  error: string | undefined
  onChange: (value: unknown) => void
}) {
  const label = property.title ?? name
  const invalid = error === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': `${id}-error` }
  const problem = <FieldError id={`${id}-error`} message={error} />
  const hint = property.description !== undefined ? <div class={styles.hint}>{property.description}</div> : null
  const mark = required ? <span class={styles.required} aria-hidden='true'>*</span> : null
  if (property.type === 'boolean') {
    return (
      <div class={styles.field}>
        <label class={styles.toggle} for={id}>
          <input id={id} type='checkbox' role='switch' checked={value === true} {...invalid} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)} />
          {label}{mark}
        </label>
        {hint}{problem}
      </div>
    )
  }
  const numeric = property.type === 'number' || property.type === 'integer'
  const input = property.format === 'color'
    ? <input id={id} class={styles.color} type='color' value={typeof value === 'string' ? value : '#000000'} {...invalid} onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)} />
    : property.format === 'date-time'
      ? <input id={id} type='datetime-local' value={toLocalInput(value)} {...invalid} onInput={(e) => onChange(fromLocalInput((e.currentTarget as HTMLInputElement).value))} />
      : (
        <input
          id={id}
          type={numeric ? 'number' : property.format === 'uri' ? 'url' : 'text'}
          step={property.type === 'integer' ? 1 : 'any'}
          min={property.minimum}
          max={property.maximum}
          required={required}
          {...invalid}
          value={value === undefined || value === null ? '' : String(value)}
          onInput={(e) => {
            const raw = (e.currentTarget as HTMLInputElement).value
            onChange(raw === '' ? undefined : numeric ? Number(raw) : raw)
          }}
        />
        )
  return <div class={styles.field}><label for={id}>{label}{mark}</label>{input}{hint}{problem}</div>
}

/**
 * A form generated from an app's settings schema, as the spec renders formats: color → color
 * picker, date-time → date/time picker, uri → URL input; string → text, number → number, boolean → toggle.
 */
export function SettingsForm ({ schema, initial, busy = false, onSubmit, onChange, submitLabel = 'Save settings', idPrefix = 'setting', serverProblems = {} }: {
  schema: SettingsSchema, initial: Values, busy?: boolean,
  /** Problems the server found, by setting name (mapped from a 400's `errors` by path); the form's own checks come first. */
  serverProblems?: Record<string, string>
  /** Without it the form has no submit button (the theme editor saves the whole page). */
  onSubmit?: (values: Values) => void
  /** Every edit, at once (the theme editor's live preview). */
  onChange?: (values: Values) => void
  submitLabel?: string
  /** Keeps field ids unique when several forms share a screen. */
  idPrefix?: string
}) {
  const [values, setValues] = useState<Values>(() => {
    const start: Values = {}
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (initial[name] !== undefined || property.default !== undefined) start[name] = initial[name] ?? property.default
    }
    return start
  })
  const required = new Set(schema.required ?? [])
  const defined = (all: Values) => Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined))
  const problems = settingsProblems(schema, values)
  const invalid = Object.keys(problems).length > 0
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (!invalid) onSubmit?.(defined(values)) }}>
      {Object.entries(schema.properties ?? {}).map(([name, property]) => (
        <Field
          key={name} id={`${idPrefix}-${name}`} name={name} property={property} value={values[name]} required={required.has(name)}
          error={problems[name] ?? serverProblems[name]}
          onChange={(value) => {
            const next = { ...values, [name]: value }
            setValues(next)
            onChange?.(defined(next))
          }}
        />
      ))}
      {onSubmit !== undefined && <button type='submit' disabled={busy || invalid}>{busy ? 'Saving…' : submitLabel}</button>}
    </form>
  )
}
