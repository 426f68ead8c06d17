import { TimeChart } from '../../../components/time-chart/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../../components/states/index.tsx'
import { useSession } from '../../../lib/use-session.tsx'
import { useResource } from '../../../lib/use-resource.ts'
import { useAction } from '../../../lib/use-action.ts'
import { currencyDigits } from '../../../lib/money.ts'
import { money, type Earnings } from '../../../lib/billing-types.ts'
import type { SectionProps } from '../section.ts'
import consoleStyles from '../console.module.css'
import styles from './style.module.css'

const MONTHS = 12
const MONTH_LABEL = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' })
const monthLabel = (month: string) => MONTH_LABEL.format(new Date(`${month}-01T00:00:00Z`))

function Figure ({ label, value, testId, note }: { label: string, value: string, testId: string, note?: string }) {
  return (
    <div class={consoleStyles.figure}>
      <span class='muted'>{label}</span>
      <strong data-testid={testId}>{value}</strong>
      {note !== undefined && <span class={`muted ${styles.note}`}>{note}</span>}
    </div>
  )
}

/** "Download CSV": the export needs the session, which only the API client carries, so the file comes through it. */
function CsvLink ({ appId, slug }: { appId: string, slug: string }) {
  const { api } = useSession()
  const action = useAction()
  const path = `/developer/apps/${encodeURIComponent(appId)}/earnings.csv`
  const save = async () => {
    const blob = await action.run(() => api.download(path))
    if (blob === null) return
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = `${slug}-earnings.csv`
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
  return (
    <>
      <a
        class='button secondary' href={path} download={`${slug}-earnings.csv`} data-testid='earnings-csv' aria-busy={action.busy}
        onClick={(e) => { e.preventDefault(); if (!action.busy) void save() }}
      >
        {action.busy ? 'Preparing the CSV…' : 'Download CSV'}
      </a>
      <ErrorMessage message={action.error} />
    </>
  )
}

/** Nothing earned, nothing tested, nobody paying: the tab says so instead of a year of zeros. */
function isEmpty ({ months, payingInstallations }: Earnings): boolean {
  return payingInstallations === 0 && months.every((m) => m.gross.amount === 0 && m.testGross.amount === 0)
}

/** The Earnings tab (DESIGN §23): per month what invoices paid for the app, the platform's fee and the net; test charges apart. */
export function EarningsSection ({ app }: SectionProps) {
  const { api } = useSession()
  const path = `/developer/apps/${encodeURIComponent(app.id)}/earnings?months=${MONTHS}`
  const earnings = useResource<Earnings>(path, () => api.get(path))
  const e = earnings.data
  return (
    <>
      <div class={`${consoleStyles.toolbar} ${styles.head}`}>
        <h2>Earnings</h2>
        {e !== null && !isEmpty(e) && <CsvLink appId={app.id} slug={app.slug} />}
      </div>
      <ErrorMessage message={earnings.error} />
      {e === null
        ? earnings.loading && <Loading what='Loading the earnings' />
        : <EarningsReport earnings={e} />}
    </>
  )
}

function EarningsReport ({ earnings }: { earnings: Earnings }) {
  const { months, payingInstallations, monthlyRecurringRevenue, platformFeePercent } = earnings
  const currency = monthlyRecurringRevenue.currency
  const sum = (pick: (m: Earnings['months'][number]) => number) => ({ amount: months.reduce((total, m) => total + pick(m), 0), currency })
  const gross = sum((m) => m.gross.amount)
  const net = sum((m) => m.net.amount)
  const test = sum((m) => m.testGross.amount)
  if (isEmpty(earnings)) {
    return (
      <Empty>
        No earnings yet. Add plans to the app's pricing in Settings: once a merchant approves a charge, each invoice's lines for
        your app show here by month, less the platform's {platformFeePercent} % fee.
      </Empty>
    )
  }
  const major = 10 ** currencyDigits(currency)
  const chronological = [...months].reverse()
  return (
    <div data-testid='earnings'>
      <div class={consoleStyles.figures}>
        <Figure label='Paying installations' value={String(payingInstallations)} testId='paying-installations' />
        <Figure label='Monthly recurring revenue' value={money(monthlyRecurringRevenue)} testId='mrr' />
        <Figure label={`Net, last ${months.length} months`} value={money(net)} testId='net-total' note={`${money(gross)} gross, less ${platformFeePercent} %`} />
        <Figure label='Test charges' value={money(test)} testId='test-total' note='Never invoiced, not paid' />
      </div>
      <TimeChart
        testId='chart-earnings' title={`Gross and net per month (${currency})`} unit='month' dates={chronological.map((m) => `${m.month}-01`)}
        format={(value) => money({ amount: Math.round(value * major), currency })}
        series={[
          { label: 'Gross', color: '#3b5bdb', values: chronological.map((m) => m.gross.amount / major) },
          { label: 'Net', color: '#2b8a3e', values: chronological.map((m) => m.net.amount / major) }
        ]}
      />
      <h3>By month</h3>
      <div class='table-scroll'>
        <table class={styles.months} data-testid='earnings-months'>
          <caption class='sr-only'>Earnings per month, newest first</caption>
          <thead>
            <tr>
              <th scope='col'>Month</th><th scope='col' class={styles.amount}>Gross</th>
              <th scope='col' class={styles.amount}>Fee ({platformFeePercent} %)</th><th scope='col' class={styles.amount}>Net</th>
              <th scope='col' class={`${styles.amount} ${styles.test}`}>Test charges</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month} data-month={m.month}>
                <th scope='row'>{monthLabel(m.month)}</th>
                <td class={styles.amount}>{money(m.gross)}</td>
                <td class={styles.amount}>{money(m.fee)}</td>
                <td class={styles.amount}><strong>{money(m.net)}</strong></td>
                <td class={`${styles.amount} ${styles.test}`}>{money(m.testGross)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class='muted'>Test charges come from test installs and charges marked as tests: merchants approve them like any other, and they are never invoiced or paid out.</p>
    </div>
  )
}
