import { useEffect, useRef, useState } from 'preact/hooks'
import { EVENT_SCOPES, type EventName } from '../../../../sdk/src/contract/events.ts'
import { API_VERSIONS, SPEC_API_VERSION } from '../../../../sdk/src/contract/api-version-names.ts'
import { CATEGORIES, SCOPES, WEBHOOK_EVENTS, type Category, type DeveloperApp } from '../../lib/types.ts'
import { categoryLabel } from '../../lib/format.ts'
import type { ApiProblem } from '../../lib/api.ts'
import { problemsByField } from '../../lib/field-errors.ts'
import { CheckGroup } from '../check-group/index.tsx'
import { FieldError } from '../states/index.tsx'
import styles from './style.module.css'

/** The editable fields of an app, as the create and PATCH bodies take them. */
export interface AppFields {
  name: string
  slug: string
  description: string
  category: Category
  scopes: string[]
  redirectUrl: string
  /** Install entry and home (DESIGN §15); empty: none. */
  appUrl: string
  webhookUrl: string
  webhookEvents: string[]
  version: string
  /** The API version new installations pin to (DESIGN §22); empty: unset, 2026-11, the spec's shapes. */
  apiVersion: string
}

export function fieldsOf (app: DeveloperApp): AppFields {
  return { name: app.name, slug: app.slug, description: app.description, category: app.category, scopes: app.scopes, redirectUrl: app.redirectUrl, appUrl: app.appUrl ?? '', webhookUrl: app.webhookUrl ?? '', webhookEvents: app.webhookEvents, version: app.version, apiVersion: app.apiVersion ?? '' }
}

/** The fields the form shows, by their body name: a server problem at one of these paths is marked on it. */
export const APP_FIELD_NAMES: ReadonlyArray<keyof AppFields> = ['name', 'slug', 'description', 'category', 'scopes', 'redirectUrl', 'appUrl', 'webhookUrl', 'webhookEvents', 'version', 'apiVersion']

/**
 * What the form can tell before sending, from the contract the server checks with (EVENT_SCOPES):
 * an event whose scope is not ticked.
 */
export function localProblems (fields: AppFields): Partial<Record<keyof AppFields, string>> {
  const missing = fields.webhookEvents
    .map((event) => ({ event, scope: EVENT_SCOPES[event as EventName] }))
    .filter(({ scope }) => scope !== null && scope !== undefined && !fields.scopes.includes(scope))
  if (missing.length === 0) return {}
  const needs = missing.map(({ event, scope }) => `${event} needs the ${scope as string} scope`).join('; ')
  return { webhookEvents: `${needs}. Tick the scope above, or untick the event.` }
}

/** A field's name as its label says it, for the line that says what the form still waits for. */
const FIELD_LABEL: Record<keyof AppFields, string> = {
  name: 'Name', slug: 'Slug', description: 'Description', category: 'Category', scopes: 'Scopes', redirectUrl: 'Redirect URL',
  appUrl: 'App URL', webhookUrl: 'Webhook URL', webhookEvents: 'Webhook events', version: 'Version', apiVersion: 'API version'
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

function isWebUrl (value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

export interface Waiting { key: keyof AppFields, reason: string, message: string }

/**
 * What the form waits for before it can send, in the form's order: a required field left empty, a value the
 * browser would refuse (a slug out of pattern, a URL that is not one), no scope, and the contract's problems.
 */
export function waitingFor (fields: AppFields, mode: 'create' | 'edit'): Waiting[] {
  const waiting: Waiting[] = []
  const url = (key: 'redirectUrl' | 'webhookUrl' | 'appUrl', required: boolean) => {
    const value = fields[key].trim()
    if (value === '' && required) waiting.push({ key, reason: 'missing', message: `Enter the ${FIELD_LABEL[key]}.` })
    else if (value !== '' && !isWebUrl(value)) waiting.push({ key, reason: 'not a full URL', message: 'Enter a full URL, starting with https://.' })
  }
  if (fields.name.trim() === '') waiting.push({ key: 'name', reason: 'missing', message: 'Enter a name.' })
  if (mode === 'create') {
    if (fields.slug === '') waiting.push({ key: 'slug', reason: 'missing', message: 'Enter a slug.' })
    else if (fields.slug.length < 3 || !SLUG.test(fields.slug)) waiting.push({ key: 'slug', reason: 'not valid', message: 'Use 3 to 50 lowercase letters, digits and single dashes.' })
  }
  if (fields.description.trim() === '') waiting.push({ key: 'description', reason: 'missing', message: 'Enter a description.' })
  if (mode === 'edit' && fields.version.trim() === '') waiting.push({ key: 'version', reason: 'missing', message: 'Enter a version.' })
  if (fields.scopes.length === 0) waiting.push({ key: 'scopes', reason: 'pick at least one', message: 'Pick at least one scope.' })
  url('redirectUrl', true)
  url('webhookUrl', false)
  url('appUrl', false)
  const local = localProblems(fields)
  if (local.webhookEvents !== undefined) waiting.push({ key: 'webhookEvents', reason: 'an event needs a scope', message: local.webhookEvents })
  return waiting
}

/** "Name (missing), Scopes (pick at least one) and Redirect URL (not a full URL)". */
function waitingSentence (waiting: Waiting[]): string {
  const parts = waiting.map((w) => `${FIELD_LABEL[w.key]} (${w.reason})`)
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

export const EMPTY_FIELDS: AppFields = { name: '', slug: '', description: '', category: 'other', scopes: [], redirectUrl: '', appUrl: '', webhookUrl: '', webhookEvents: [], version: '', apiVersion: '' }

/** Lowercase, dash-separated: the slug the API accepts, suggested from the name. */
function slugify (name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50)
}

/** The app form for creating (slug editable, no version) and for settings (slug read-only). */
export function AppForm ({ initial, mode, busy, disabled = false, submitLabel, onSubmit, problems = [] }: {
  initial: AppFields
  mode: 'create' | 'edit'
  busy: boolean
  disabled?: boolean
  submitLabel: string
  onSubmit: (fields: AppFields) => void
  /** The last save's problems (a 400's `errors`): each is marked on its field until that field changes. */
  problems?: ApiProblem[]
}) {
  const [fields, setFields] = useState<AppFields>(initial)
  const [slugTouched, setSlugTouched] = useState(mode === 'edit')
  const [changedSince, setChangedSince] = useState<ReadonlySet<string>>(new Set())
  useEffect(() => setChangedSince(new Set()), [problems])
  const touch = (key: keyof AppFields) => setChangedSince((keys) => new Set(keys).add(key))
  const set = <K extends keyof AppFields>(key: K, value: AppFields[K]) => { setFields((f) => ({ ...f, [key]: value })); touch(key) }
  const text = (key: 'name' | 'description' | 'redirectUrl' | 'appUrl' | 'webhookUrl' | 'version') => (e: Event) => set(key, (e.currentTarget as HTMLInputElement).value)
  // after a try to send, the fields the form waits for are marked too (before it, the line by the button says which)
  const [attempted, setAttempted] = useState(false)
  const local = localProblems(fields)
  const waiting = waitingFor(fields, mode)
  const waitingOn = Object.fromEntries(waiting.map((w) => [w.key, w.message])) as Partial<Record<keyof AppFields, string>>
  const server = problemsByField(problems)
  const errorOf = (key: keyof AppFields): string | undefined =>
    local[key] ?? (attempted ? waitingOn[key] : undefined) ?? (changedSince.has(key) ? undefined : server[key])
  /** aria-invalid and aria-describedby of a field's input, and the message under it. */
  const marked = (key: keyof AppFields) => errorOf(key) === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': `app-${key}-error` }
  const mark = (key: keyof AppFields) => <FieldError id={`app-${key}-error`} message={errorOf(key)} />
  const blocked = waiting.length > 0
  const form = useRef<HTMLFormElement>(null)

  function submit (e: Event) {
    e.preventDefault()
    if (busy || disabled) return
    if (!blocked) { onSubmit(fields); return }
    // not sent: mark every field it waits for and take the keyboard to the first
    setAttempted(true)
    const first = form.current?.querySelector<HTMLElement>(`[data-field="${waiting[0].key}"] input, [data-field="${waiting[0].key}"] textarea, #app-${waiting[0].key}`)
    first?.focus()
  }

  return (
    <form ref={form} class={styles.form} noValidate onSubmit={submit}>
      <fieldset class={styles.plain} disabled={disabled}>
        <div class={styles.two}>
          <label>Name<input
            id='app-name' value={fields.name} required maxLength={100} {...marked('name')} onInput={(e) => {
              const name = (e.currentTarget as HTMLInputElement).value
              setFields((f) => ({ ...f, name, slug: slugTouched ? f.slug : slugify(name) }))
              touch('name')
            }}
                     />{mark('name')}
          </label>
          {mode === 'create'
            ? <label>Slug<input id='app-slug' value={fields.slug} required minLength={3} maxLength={50} pattern='[a-z0-9]+(-[a-z0-9]+)*' title='Lowercase letters, digits and single dashes' {...marked('slug')} onInput={(e) => { setSlugTouched(true); set('slug', (e.currentTarget as HTMLInputElement).value) }} /><span class={styles.hint}>Lowercase and dashes; it cannot change later.</span>{mark('slug')}</label>
            : <label>Slug<input value={fields.slug} readOnly class={styles.readonly} /><span class={styles.hint}>Fixed at creation.</span></label>}
        </div>
        <label>Description<textarea id='app-description' value={fields.description} required maxLength={500} rows={3} {...marked('description')} onInput={text('description')} />{mark('description')}</label>
        <div class={styles.two}>
          <label>Category
            <select value={fields.category} onChange={(e) => set('category', (e.currentTarget as HTMLSelectElement).value as Category)}>
              {CATEGORIES.map((c) => <option key={c} value={c}>{categoryLabel(c)}</option>)}
            </select>
          </label>
          {mode === 'edit' && <label>Version<input id='app-version' value={fields.version} required maxLength={32} {...marked('version')} onInput={text('version')} />{mark('version')}</label>}
        </div>
        <CheckGroup field='scopes' legend='Scopes (at least one)' name='scopes' options={SCOPES} value={fields.scopes} onChange={(v) => set('scopes', v)} error={errorOf('scopes')} />
        <div class={styles.two}>
          <label>Redirect URL<input id='app-redirectUrl' type='url' value={fields.redirectUrl} required placeholder='https://app.example.com/oauth/callback' {...marked('redirectUrl')} onInput={text('redirectUrl')} />{mark('redirectUrl')}</label>
          <label>Webhook URL (optional)<input id='app-webhookUrl' type='url' value={fields.webhookUrl} placeholder='https://app.example.com/webhooks' {...marked('webhookUrl')} onInput={text('webhookUrl')} />{mark('webhookUrl')}</label>
        </div>
        <label>App URL (install entry)<input id='app-appUrl' type='url' value={fields.appUrl} placeholder='https://app.example.com/install' {...marked('appUrl')} onInput={text('appUrl')} />{mark('appUrl')}
          <span class={styles.hint}>
            The marketplace's Install button sends merchants here with businessId and business; your app starts OAuth.
            Without it, merchants cannot install from the listing.
          </span>
        </label>
        <CheckGroup field='webhookEvents' legend='Webhook events' name='webhookEvents' options={WEBHOOK_EVENTS} value={fields.webhookEvents} onChange={(v) => set('webhookEvents', v)} error={errorOf('webhookEvents')} />
        {mode === 'edit' && (
          <label>API version
            <select value={fields.apiVersion} {...marked('apiVersion')} onChange={(e) => set('apiVersion', (e.currentTarget as HTMLSelectElement).value)}>
              <option value=''>Not set ({SPEC_API_VERSION}, the spec's shapes)</option>
              {API_VERSIONS.map((version) => <option key={version} value={version}>{version}</option>)}
            </select>
            <span class={styles.hint}>New installations pin to it; move existing ones from the API versions tab.</span>{mark('apiVersion')}
          </label>
        )}
        <div class={styles.send}>
          {/* aria-disabled, not disabled: the button stays focusable, says by its description what it waits for, and marks the fields when pressed */}
          <button
            type='submit' disabled={busy || disabled} aria-disabled={blocked ? 'true' : undefined}
            aria-describedby={blocked && !disabled ? 'app-form-waiting' : undefined} class={blocked ? styles.waiting : undefined}
          >{busy ? 'Saving…' : submitLabel}
          </button>
          <p class={styles.waitingLine} aria-live='polite' data-testid='form-waiting'>
            {blocked && !disabled && <span id='app-form-waiting'>{submitLabel} needs: {waitingSentence(waiting)}.</span>}
          </p>
        </div>
      </fieldset>
    </form>
  )
}
