import { useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import type { MerchantBilling, MerchantCharge } from '../../lib/billing-types.ts'
import { PendingCharges, Subscriptions } from './subscriptions.tsx'
import { Invoices } from './invoices.tsx'
import styles from './style.module.css'

/** /admin/billing: what the apps charge (DESIGN §23): charges to approve, active subscriptions with their usage, and the invoices. */
export default function AdminBilling () {
  const { api } = useSession()
  const { query, route } = useLocation()
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1)
  const billing = useResource<MerchantBilling>('merchant-billing', () => api.get('/merchant/billing'))
  const [cancelled, setCancelled] = useState<MerchantCharge | null>(null)
  // the cancelled card goes away with its buttons: focus moves to the heading, and the notice says what happened
  const heading = useRef<HTMLHeadingElement>(null)
  const b = billing.data
  return (
    <AdminShell>
      {() => (
        <section>
          <h1 ref={heading} tabIndex={-1}>Billing</h1>
          {cancelled !== null && <Notice>{cancelled.app.name}'s {cancelled.name} subscription is cancelled.</Notice>}
          <ErrorMessage message={billing.error} />
          {b === null
            ? billing.loading && <Loading what='Loading billing' />
            : (
              <>
                <p data-testid='next-invoice'>
                  {b.nextInvoiceAt === null
                    ? <span class='muted'>No invoice is scheduled: nothing you approved is billed yet.</span>
                    : <>Next invoice: <strong>{formatDate(b.nextInvoiceAt)}</strong></>}
                </p>
                {b.pending.length > 0 && (
                  <section aria-labelledby='billing-pending' class={styles.block}>
                    <h2 id='billing-pending'>Waiting for your approval</h2>
                    <PendingCharges pending={b.pending} />
                  </section>
                )}
                <section aria-labelledby='billing-subscriptions' class={styles.block}>
                  <h2 id='billing-subscriptions'>Subscriptions</h2>
                  <Subscriptions billing={b} onCancelled={(charge) => { setCancelled(charge); billing.reload(); heading.current?.focus() }} />
                </section>
              </>
              )}
          <section aria-labelledby='billing-invoices' class={styles.block}>
            <h2 id='billing-invoices'>Invoices</h2>
            <Invoices page={page} onPage={(p) => route(p === 1 ? '/admin/billing' : `/admin/billing?page=${p}`)} />
          </section>
        </section>
      )}
    </AdminShell>
  )
}
