import { MAX_PLANS, MAX_TRIAL_DAYS, type PlanInterval, type PlanKind, type Pricing, type PricingPlan } from '../../../sdk/src/contract/billing.ts'
import type { ApiProblem } from './api.ts'
import { sentence } from './field-errors.ts'
import { parseMoney, toMajorInput } from './money.ts'

/** One plan as the pricing editor holds it: amounts as typed (major units), the usage cap optional. */
export interface PlanDraft {
  /** The editor's own key for the row (a plan's id may be edited). */
  key: string
  id: string
  name: string
  kind: PlanKind
  price: string
  interval: PlanInterval
  trialDays: string
  hasUsage: boolean
  usageCap: string
  usageTerms: string
}

/** The fields of a plan a problem can be marked on. */
export type PlanField = 'id' | 'name' | 'kind' | 'price' | 'interval' | 'trialDays' | 'usageCap' | 'usageTerms'
/** Problems by plan row (its index) and field. */
export type PlanProblems = Array<Partial<Record<PlanField, string>>>

export { MAX_PLANS, MAX_TRIAL_DAYS }
const PLAN_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

let nextKey = 0
const newKey = () => `plan-${++nextKey}`

/** Lowercase, dash-separated: a plan id suggested from its name. */
export function planIdFrom (name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)
}

export function draftsOf (pricing: Pricing, currency: string): PlanDraft[] {
  return pricing.plans.map((plan) => ({
    key: newKey(),
    id: plan.id,
    name: plan.name,
    kind: plan.kind,
    price: toMajorInput(plan.price.amount, currency),
    interval: plan.interval ?? 'EVERY_30_DAYS',
    trialDays: String(plan.trialDays ?? 0),
    hasUsage: plan.usage !== undefined,
    usageCap: plan.usage === undefined ? '' : toMajorInput(plan.usage.cappedAmount.amount, currency),
    usageTerms: plan.usage?.terms ?? ''
  }))
}

export function emptyDraft (): PlanDraft {
  return { key: newKey(), id: '', name: '', kind: 'RECURRING', price: '', interval: 'EVERY_30_DAYS', trialDays: '0', hasUsage: false, usageCap: '', usageTerms: '' }
}

const trialOf = (text: string): number | null => /^\s*\d{1,3}\s*$/.test(text) && Number(text) <= MAX_TRIAL_DAYS ? Number(text) : null

/** What the editor can tell before sending, by row and field; the server checks the same and more. */
export function localProblems (drafts: PlanDraft[], currency: string): PlanProblems {
  const ids = drafts.map((draft) => draft.id.trim())
  return drafts.map((draft, index) => {
    const problems: Partial<Record<PlanField, string>> = {}
    const id = ids[index]
    if (id === '') problems.id = 'Enter an id.'
    else if (!PLAN_ID.test(id) || id.length > 40) problems.id = 'Use lowercase letters, digits and single dashes (at most 40).'
    else if (ids.indexOf(id) !== index) problems.id = 'Another plan has this id.'
    if (draft.name.trim() === '') problems.name = 'Enter a name.'
    if (parseMoney(draft.price, currency) === null) problems.price = `Enter a price in ${currency}, like 19.00.`
    if (draft.kind === 'RECURRING') {
      if (trialOf(draft.trialDays) === null) problems.trialDays = `Enter whole days from 0 to ${MAX_TRIAL_DAYS}.`
      if (draft.hasUsage) {
        if (parseMoney(draft.usageCap, currency) === null) problems.usageCap = `Enter a cap in ${currency}, like 50.00.`
        if (draft.usageTerms.trim() === '') problems.usageTerms = 'Say what the usage charges are for.'
      }
    }
    return problems
  })
}

export const hasProblems = (problems: PlanProblems): boolean => problems.some((row) => Object.keys(row).length > 0)

/** The plans as the PATCH body takes them (call after localProblems found none). */
export function pricingOf (drafts: PlanDraft[], currency: string): Pricing {
  const money = (text: string) => ({ amount: parseMoney(text, currency) ?? 0, currency })
  return {
    plans: drafts.map((draft): PricingPlan => {
      const common = { id: draft.id.trim(), name: draft.name.trim(), kind: draft.kind, price: money(draft.price) }
      if (draft.kind === 'ONE_TIME') return common
      return {
        ...common,
        interval: draft.interval,
        trialDays: trialOf(draft.trialDays) ?? 0,
        ...(draft.hasUsage ? { usage: { cappedAmount: money(draft.usageCap), terms: draft.usageTerms.trim() } } : {})
      }
    })
  }
}

/** The field of a plan a server path names (`/pricing/plans/1/usage/cappedAmount/currency` → row 1, usageCap). */
function fieldOfPath (rest: string[]): PlanField | null {
  const [first, second] = rest
  if (first === 'usage') return second === 'terms' ? 'usageTerms' : 'usageCap'
  if (first === 'price') return 'price'
  return (['id', 'name', 'kind', 'interval', 'trialDays'] as const).find((field) => field === first) ?? null
}

/** A 400's problems under /pricing by row and field; what names no field of a row (the list itself) under `list`. */
export function serverProblems (problems: ApiProblem[]): { rows: PlanProblems, list: string | null } {
  const rows: PlanProblems = []
  let list: string | null = null
  for (const problem of problems) {
    if ((problem.in ?? 'body') !== 'body' || !problem.path.startsWith('/pricing')) continue
    const [, , plans, index, ...rest] = problem.path.split('/')
    const field = plans === 'plans' && index !== undefined ? fieldOfPath(rest) : null
    if (field === null) { list ??= sentence(problem.message); continue }
    const row = (rows[Number(index)] ??= {})
    row[field] ??= sentence(problem.message)
  }
  return { rows, list }
}
