import type { ComponentChildren } from 'preact'
import { describeScope } from '../../lib/types.ts'
import type { Pricing } from '../../../../sdk/src/contract/billing.ts'
import { PlanList } from '../plan-list/index.tsx'
import styles from './style.module.css'

export interface ConsentApp { name: string, description?: string, iconUrl: string | null, developerName?: string }

/**
 * What the merchant approves, in plain words: the consent screen for an install and for a scope
 * expansion (DESIGN §16 Re-consent) share it. `added` scopes are marked new; the rest are already granted.
 */
export function ConsentView ({ app, target, scopes, added = [], granted = [], pricing, children }: {
  app: ConsentApp
  target: ComponentChildren
  /** What it will be able to do (an install). */
  scopes?: string[]
  /** Re-consent: what it gains… */
  added?: string[]
  /** …and what it already has. */
  granted?: string[]
  /** An install: the plans the app may charge from (the approved ones; DESIGN §23). */
  pricing?: Pricing
  children: ComponentChildren
}) {
  const reconsent = added.length > 0
  return (
    <div class={`panel ${styles.card}`} data-testid='consent'>
      <div class={styles.app}>
        {app.iconUrl !== null ? <img class={styles.icon} src={app.iconUrl} alt='' /> : <div class={styles.icon} aria-hidden='true'>{app.name.slice(0, 1)}</div>}
        <div>
          <h1 class={styles.name}>{app.name}</h1>
          {app.developerName !== undefined && <div class={styles.by}>by {app.developerName}</div>}
        </div>
      </div>
      {app.description !== undefined && <p>{app.description}</p>}
      <div class={styles.target}>{target}</div>
      {reconsent
        ? (
          <>
            <h2>It asks to also be able to</h2>
            <ul class={styles.scopes} data-testid='added-scopes'>
              {added.map((scope) => <li key={scope} title={scope}><span class={styles.new}>New</span> {describeScope(scope)}</li>)}
            </ul>
            <h2>It can already</h2>
            <ul class={styles.scopes} data-testid='granted-scopes'>
              {granted.length === 0 ? <li class='muted'>Nothing yet</li> : granted.map((scope) => <li key={scope} title={scope}>{describeScope(scope)}</li>)}
            </ul>
          </>
          )
        : (
          <>
            <h2>It will be able to</h2>
            <ul class={styles.scopes} data-testid='requested-scopes'>
              {(scopes ?? []).map((scope) => <li key={scope} title={scope}>{describeScope(scope)}</li>)}
            </ul>
          </>
          )}
      {pricing !== undefined && (
        <div class={styles.pricing}>
          <h2>Pricing</h2>
          <PlanList pricing={pricing} />
          {pricing.plans.length > 0 && <p class='muted'>The app asks you to approve each charge before it starts.</p>}
        </div>
      )}
      {children}
    </div>
  )
}
