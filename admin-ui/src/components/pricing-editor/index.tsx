import { useEffect, useRef, useState } from 'preact/hooks'
import type { Pricing } from '../../../../sdk/src/contract/billing.ts'
import type { ApiProblem } from '../../lib/api.ts'
import {
  MAX_PLANS, MAX_TRIAL_DAYS, draftsOf, emptyDraft, hasProblems, localProblems, planIdFrom, pricingOf, serverProblems,
  type PlanDraft, type PlanField
} from '../../lib/pricing-drafts.ts'
import { FieldError } from '../states/index.tsx'
import styles from './style.module.css'

/**
 * The app's pricing plans (DESIGN §23): add and remove plans, each with its kind, price, interval, trial
 * and an optional usage cap with its terms. Amounts are typed in the platform's currency's major unit.
 * A problem shows under its field: the editor's own checks once a save was tried, the server's until the
 * field changes.
 */
export function PricingEditor ({ initial, currency, busy, disabled = false, problems = [], onSubmit }: {
  initial: Pricing
  currency: string
  busy: boolean
  disabled?: boolean
  /** The last save's problems (a 400's `errors`). */
  problems?: ApiProblem[]
  onSubmit: (pricing: Pricing) => void
}) {
  const [drafts, setDrafts] = useState<PlanDraft[]>(() => draftsOf(initial, currency))
  const [idTouched, setIdTouched] = useState<ReadonlySet<string>>(() => new Set(drafts.map((d) => d.key)))
  const [attempted, setAttempted] = useState(false)
  const [changedSince, setChangedSince] = useState<ReadonlySet<string>>(new Set())
  useEffect(() => setChangedSince(new Set()), [problems])
  const list = useRef<HTMLDivElement>(null)
  const [focusKey, setFocusKey] = useState<string | null>(null)
  useEffect(() => {
    if (focusKey === null) return
    list.current?.querySelector<HTMLElement>(focusKey === 'add' ? '[data-action="add-plan"]' : `#plan-${focusKey}-name`)?.focus()
    setFocusKey(null)
  }, [focusKey])

  const local = localProblems(drafts, currency)
  const server = serverProblems(problems)
  const errorOf = (index: number, key: string, field: PlanField): string | undefined =>
    (attempted ? local[index][field] : undefined) ?? (changedSince.has(`${key}.${field}`) ? undefined : server.rows[index]?.[field])

  function update (key: string, field: PlanField | 'hasUsage', patch: Partial<PlanDraft>) {
    setDrafts((all) => all.map((d) => {
      if (d.key !== key) return d
      const next = { ...d, ...patch }
      // a new plan's id follows its name until the id is typed in
      return field === 'name' && !idTouched.has(key) ? { ...next, id: planIdFrom(next.name) } : next
    }))
    setChangedSince((keys) => new Set(keys).add(`${key}.${field}`))
  }
  function add () {
    const draft = emptyDraft()
    setDrafts((all) => [...all, draft])
    setFocusKey(draft.key)
  }
  function remove (key: string) {
    setDrafts((all) => all.filter((d) => d.key !== key))
    setFocusKey('add')
  }
  function submit (e: Event) {
    e.preventDefault()
    if (busy || disabled) return
    if (!hasProblems(local)) { onSubmit(pricingOf(drafts, currency)); return }
    setAttempted(true)
    const index = local.findIndex((row) => Object.keys(row).length > 0)
    const field = Object.keys(local[index])[0]
    list.current?.querySelector<HTMLElement>(`#plan-${drafts[index].key}-${field}`)?.focus()
  }

  return (
    <form class={styles.editor} noValidate onSubmit={submit} data-testid='pricing-editor'>
      <fieldset class={styles.plain} disabled={disabled}>
        <div ref={list} class={styles.plans}>
          {drafts.length === 0 && <p class='muted' data-testid='pricing-none'>No plans: the app is free.</p>}
          {drafts.map((draft, index) => {
            const id = (field: string) => `plan-${draft.key}-${field}`
            const input = (field: PlanField) => {
              const error = errorOf(index, draft.key, field)
              return { id: id(field), ...(error === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': `${id(field)}-error` }) }
            }
            const mark = (field: PlanField) => <FieldError id={`${id(field)}-error`} message={errorOf(index, draft.key, field)} />
            const text = (field: 'name' | 'price' | 'trialDays' | 'usageCap' | 'usageTerms') => (e: Event) => update(draft.key, field, { [field]: (e.currentTarget as HTMLInputElement).value })
            const recurring = draft.kind === 'RECURRING'
            return (
              <fieldset key={draft.key} class={styles.plan} data-testid='plan' data-plan-index={index}>
                <legend>Plan {index + 1}{draft.name.trim() === '' ? '' : `: ${draft.name.trim()}`}</legend>
                <div class={styles.grid}>
                  <label>Name<input {...input('name')} value={draft.name} maxLength={60} onInput={text('name')} />{mark('name')}</label>
                  <label>Id<input
                    {...input('id')} value={draft.id} maxLength={40} spellcheck={false}
                    onInput={(e) => { setIdTouched((keys) => new Set(keys).add(draft.key)); update(draft.key, 'id', { id: (e.currentTarget as HTMLInputElement).value }) }}
                           /><span class={styles.hint}>Your app charges it by this id.</span>{mark('id')}
                  </label>
                  <label>Kind
                    <select {...input('kind')} value={draft.kind} onChange={(e) => update(draft.key, 'kind', { kind: (e.currentTarget as HTMLSelectElement).value as PlanDraft['kind'] })}>
                      <option value='RECURRING'>Recurring</option>
                      <option value='ONE_TIME'>One-time</option>
                    </select>{mark('kind')}
                  </label>
                  <label>Price ({currency})<input {...input('price')} value={draft.price} inputMode='decimal' placeholder='19.00' onInput={text('price')} />{mark('price')}</label>
                  {recurring && (
                    <>
                      <label>Interval
                        <select {...input('interval')} value={draft.interval} onChange={(e) => update(draft.key, 'interval', { interval: (e.currentTarget as HTMLSelectElement).value as PlanDraft['interval'] })}>
                          <option value='EVERY_30_DAYS'>Every 30 days</option>
                          <option value='ANNUAL'>Every year</option>
                        </select>{mark('interval')}
                      </label>
                      <label>Trial days<input {...input('trialDays')} type='number' min={0} max={MAX_TRIAL_DAYS} step={1} value={draft.trialDays} onInput={text('trialDays')} />{mark('trialDays')}</label>
                    </>
                  )}
                </div>
                {recurring && (
                  <>
                    <label class={styles.check}>
                      <input type='checkbox' checked={draft.hasUsage} onChange={(e) => update(draft.key, 'hasUsage', { hasUsage: (e.currentTarget as HTMLInputElement).checked })} />
                      Usage charges on top of the price
                    </label>
                    {draft.hasUsage && (
                      <div class={styles.grid}>
                        <label>Usage cap every 30 days ({currency})<input {...input('usageCap')} value={draft.usageCap} inputMode='decimal' placeholder='50.00' onInput={text('usageCap')} />{mark('usageCap')}</label>
                        <label class={styles.wide}>Terms<input {...input('usageTerms')} value={draft.usageTerms} maxLength={500} placeholder='5 cents per message sent' onInput={text('usageTerms')} />{mark('usageTerms')}</label>
                      </div>
                    )}
                  </>
                )}
                <button type='button' class={`secondary ${styles.remove}`} onClick={() => remove(draft.key)}>Remove plan {index + 1}</button>
              </fieldset>
            )
          })}
          <button type='button' class='secondary' data-action='add-plan' disabled={drafts.length >= MAX_PLANS} onClick={add}>Add a plan</button>
          {drafts.length >= MAX_PLANS && <span class={styles.hint}> An app has at most {MAX_PLANS} plans.</span>}
        </div>
        {server.list !== null && <p class='field-error' role='alert'>{server.list}</p>}
        <div class={styles.send}>
          <button type='submit' disabled={busy || disabled}>{busy ? 'Saving…' : 'Save pricing'}</button>
          {attempted && hasProblems(local) && <p class={styles.waiting} role='status'>Fix the marked fields to save the pricing.</p>}
        </div>
      </fieldset>
    </form>
  )
}
