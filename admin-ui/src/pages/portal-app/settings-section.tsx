import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { DeveloperApp } from '../../lib/types.ts'
import { AppForm, APP_FIELD_NAMES, fieldsOf, type AppFields } from '../../components/app-form/index.tsx'
import { allShown } from '../../lib/field-errors.ts'
import { ErrorMessage, Notice } from '../../components/states/index.tsx'
import { PricingEditor } from '../../components/pricing-editor/index.tsx'
import { PlanList } from '../../components/plan-list/index.tsx'
import type { Pricing } from '../../../../sdk/src/contract/billing.ts'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

export function SettingsSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [saved, setSaved] = useState<string | null>(null)

  async function save (fields: AppFields) {
    setSaved(null)
    const webhookUrl = fields.webhookUrl.trim()
    const body = {
      name: fields.name, description: fields.description, category: fields.category, scopes: fields.scopes,
      redirectUrl: fields.redirectUrl, appUrl: fields.appUrl.trim() === '' ? null : fields.appUrl.trim(), webhookUrl: webhookUrl === '' ? null : webhookUrl, webhookEvents: fields.webhookEvents, version: fields.version,
      apiVersion: fields.apiVersion === '' ? null : fields.apiVersion
    }
    const updated = await action.run(() => api.patch<DeveloperApp>(`/developer/apps/${app.id}`, body))
    if (updated === null) return
    setSaved(app.isPublished && updated.status === 'DRAFT' && app.status === 'APPROVED'
      ? 'Saved. The new scopes need a review: submit the app from the Review tab. The live listing keeps its approved scopes until then.'
      : 'Settings saved.')
    reload()
  }

  return (
    <>
      <h2>Settings</h2>
      {app.status === 'PENDING_REVIEW' && <p class='muted'>This app is waiting for review; edits are refused until the review ends.</p>}
      {saved !== null && <Notice>{saved}</Notice>}
      <ErrorMessage message={action.error} problems={action.problems} marked={allShown(action.problems, APP_FIELD_NAMES)} />
      <AppForm initial={fieldsOf(app)} mode='edit' busy={action.busy} submitLabel='Save settings' problems={action.problems} onSubmit={(f) => { void save(f) }} />
      <PricingSection app={app} reload={reload} />
    </>
  )
}

/** The plans merchants choose from (DESIGN §23): on a published app a change waits for a review, the listing keeps the approved plans. */
function PricingSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [saved, setSaved] = useState<string | null>(null)

  async function save (pricing: Pricing) {
    setSaved(null)
    const updated = await action.run(() => api.patch<DeveloperApp>(`/developer/apps/${app.id}`, { pricing }))
    if (updated === null) return
    setSaved(updated.isPublished && updated.status === 'DRAFT'
      ? 'Pricing saved. The change needs a review: submit the app from the Review tab. The listing shows the approved plans until then.'
      : 'Pricing saved.')
    reload()
  }

  const waiting = app.isPublished && app.approvedPricing !== null && JSON.stringify(app.approvedPricing) !== JSON.stringify(app.pricing)
  return (
    <section class={styles.pricing} aria-labelledby='pricing-heading' data-testid='pricing-section'>
      <h2 id='pricing-heading'>Pricing</h2>
      <p class='muted'>
        The plans merchants see on the listing and when they install. Prices are in {app.billingCurrency}; a merchant approves each charge your app asks for.
        {app.isPublished && ' A change waits for a review.'}
      </p>
      {saved !== null && <Notice>{saved}</Notice>}
      <ErrorMessage message={action.error} problems={action.problems} marked={action.problems.length > 0 && action.problems.every((p) => p.path.startsWith('/pricing'))} />
      {waiting && app.approvedPricing !== null && (
        <details class='panel' data-testid='approved-pricing' open>
          <summary>Live on the listing until the review</summary>
          <PlanList pricing={app.approvedPricing} />
        </details>
      )}
      <PricingEditor
        initial={app.pricing} currency={app.billingCurrency} busy={action.busy} disabled={app.status === 'PENDING_REVIEW'}
        problems={action.problems} onSubmit={(pricing) => { void save(pricing) }}
      />
    </section>
  )
}
