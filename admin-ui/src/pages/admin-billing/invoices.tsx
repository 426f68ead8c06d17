import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import { money, type Invoice } from '../../lib/billing-types.ts'
import type { Envelope } from '../../lib/types.ts'
import styles from './style.module.css'

export const INVOICES_PER_PAGE = 10

const KIND_WORDS: Record<Invoice['lines'][number]['kind'], string> = { RECURRING: 'Subscription', ONE_TIME: 'One-time purchase', USAGE: 'Usage' }

/** One invoice: its period and total, opened (a native disclosure, so keyboards and screen readers know it) to its lines. */
function InvoiceItem ({ invoice }: { invoice: Invoice }) {
  const lines = invoice.lines.length === 1 ? '1 line' : `${invoice.lines.length} lines`
  return (
    <li>
      <details class={styles.invoice} data-testid={`invoice-${invoice.id}`}>
        <summary>
          <span class={styles.period}>{formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}</span>
          <span class='muted'>{lines}</span>
          <strong class={styles.total}>{money(invoice.total)}</strong>
        </summary>
        <p class='muted'>Invoice <code>{invoice.id}</code>, issued {formatDate(invoice.createdAt)}</p>
        <div class='table-scroll'>
          <table class='cards'>
            <caption class='sr-only'>Lines of the invoice for {formatDate(invoice.periodStart)} to {formatDate(invoice.periodEnd)}</caption>
            <thead><tr><th scope='col'>App</th><th scope='col'>Kind</th><th scope='col'>Description</th><th scope='col' class={styles.amount}>Amount</th></tr></thead>
            <tbody>
              {invoice.lines.map((line, i) => (
                <tr key={i}>
                  <td data-label='App'>{line.appName}</td>
                  <td data-label='Kind'>{KIND_WORDS[line.kind]}</td>
                  <td data-label='Description'>{line.description}</td>
                  <td data-label='Amount' class={styles.amount}>{money(line.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot><tr><th scope='row' colSpan={3}>Total</th><td class={styles.amount} data-testid='invoice-total'>{money(invoice.total)}</td></tr></tfoot>
          </table>
        </div>
      </details>
    </li>
  )
}

/** The business's invoices, newest first, a page at a time (the page lives in the URL). */
export function Invoices ({ page, onPage }: { page: number, onPage: (page: number) => void }) {
  const { api } = useSession()
  const path = `/merchant/invoices?page=${page}&limit=${INVOICES_PER_PAGE}`
  const invoices = useResource<Envelope<Invoice>>(path, () => api.get(path))
  if (invoices.data === null) return invoices.loading ? <Loading what='Loading the invoices' /> : <ErrorMessage message={invoices.error} />
  const { data, total, limit } = invoices.data
  if (data.length === 0) {
    return page === 1
      ? <Empty>No invoices yet. The platform writes one at the end of each 30-day cycle in which an app charged you.</Empty>
      : <Empty>No invoices on this page. <a href='/admin/billing' onClick={(e) => { e.preventDefault(); onPage(1) }}>Show the newest</a></Empty>
  }
  return (
    <>
      <ErrorMessage message={invoices.error} />
      <ul class={styles.invoices} data-testid='invoices' aria-busy={invoices.loading}>
        {data.map((invoice) => <InvoiceItem key={invoice.id} invoice={invoice} />)}
      </ul>
      <Pager page={page} limit={limit} total={total} onPage={onPage} />
    </>
  )
}
