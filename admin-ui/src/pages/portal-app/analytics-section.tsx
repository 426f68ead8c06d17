import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { ANALYTICS_PERIODS, type AppAnalytics } from '../../lib/console-types.ts'
import { TimeChart } from '../../components/time-chart/index.tsx'
import { ErrorMessage, Loading } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './console.module.css'

const COLORS = { blue: '#3b5bdb', red: '#c92a2a', green: '#2b8a3e', orange: '#e8590c', grey: '#868e96', purple: '#7048e8' }
type Environment = AppAnalytics['environment']

/** Which installs the figures are about: the published app's, or the developer's test installs (DESIGN §16). */
export function EnvironmentSwitch ({ value, onChange }: { value: Environment, onChange: (value: Environment) => void }) {
  return (
    <div class={styles.segmented} role='group' aria-label='Installs'>
      {(['live', 'sandbox'] as const).map((e) => (
        <button key={e} type='button' aria-pressed={value === e} class={value === e ? styles.on : ''} onClick={() => onChange(e)}>
          {e === 'live' ? 'Live' : 'Sandbox (test installs)'}
        </button>
      ))}
    </div>
  )
}

function Figure ({ label, value, testId }: { label: string, value: string, testId: string }) {
  return <div class={styles.figure}><span class='muted'>{label}</span><strong data-testid={testId}>{value}</strong></div>
}

export function AnalyticsSection ({ app }: SectionProps) {
  const { api } = useSession()
  const [days, setDays] = useState<number>(30)
  const [environment, setEnvironment] = useState<Environment>(app.isPublished ? 'live' : 'sandbox')
  const path = `/developer/apps/${encodeURIComponent(app.id)}/analytics?days=${days}&environment=${environment}`
  const analytics = useResource<AppAnalytics>(path, () => api.get(path))
  const a = analytics.data

  return (
    <>
      <h2>Analytics</h2>
      <div class={styles.toolbar}>
        <EnvironmentSwitch value={environment} onChange={setEnvironment} />
        <div class={styles.segmented} role='group' aria-label='Period'>
          {ANALYTICS_PERIODS.map((d) => (
            <button key={d} type='button' aria-pressed={days === d} class={days === d ? styles.on : ''} onClick={() => setDays(d)}>{d} days</button>
          ))}
        </div>
      </div>
      <p class='muted'>
        {environment === 'live'
          ? 'Merchants\' installs; your test installs are left out. Days are UTC, today included.'
          : 'Only your test installs on the sandbox business. Days are UTC, today included.'}
      </p>
      <ErrorMessage message={analytics.error} />
      {a === null
        ? analytics.loading && <Loading what='Loading the analytics' />
        : (
          <div data-testid='analytics' aria-busy={analytics.loading}>
            <div class={styles.figures}>
              <Figure label='Total installs' value={String(a.totalInstalls)} testId='total-installs' />
              <Figure label='Active installs' value={String(a.activeInstalls)} testId='active-installs' />
              <Figure label='Webhook success rate' value={a.webhookSuccessRate === null ? '—' : `${a.webhookSuccessRate.toFixed(1)} %`} testId='success-rate' />
              <Figure label='Average latency' value={a.averageWebhookLatencyMs === null ? '—' : `${a.averageWebhookLatencyMs} ms`} testId='latency' />
            </div>
            <div class={styles.charts}>
              <TimeChart
                testId='chart-installs' title='Installs and uninstalls' dates={a.installTrend.map((d) => d.date)}
                series={[{ label: 'Installs', color: COLORS.blue, values: a.installTrend.map((d) => d.installs) }, { label: 'Uninstalls', color: COLORS.red, values: a.installTrend.map((d) => d.uninstalls) }]}
              />
              <TimeChart
                testId='chart-deliveries' title='Webhook deliveries' dates={a.webhookDeliveries.map((d) => d.date)}
                series={[{ label: 'Succeeded', color: COLORS.green, values: a.webhookDeliveries.map((d) => d.succeeded) }, { label: 'Failed', color: COLORS.red, values: a.webhookDeliveries.map((d) => d.failed) }]}
              />
              <TimeChart
                testId='chart-api' title='App API requests by status' dates={a.apiRequests.map((d) => d.date)}
                series={[
                  { label: '2xx', color: COLORS.green, values: a.apiRequests.map((d) => d.ok) },
                  { label: '3xx', color: COLORS.grey, values: a.apiRequests.map((d) => d.redirect) },
                  { label: '4xx', color: COLORS.orange, values: a.apiRequests.map((d) => d.clientError) },
                  { label: '429', color: COLORS.purple, values: a.apiRequests.map((d) => d.rateLimited) },
                  { label: '5xx', color: COLORS.red, values: a.apiRequests.map((d) => d.serverError) }
                ]}
              />
            </div>
            <h3>Hook calls</h3>
            {a.hookCalls.every((h) => h.succeeded + h.failed === 0)
              ? <p class='muted' data-testid='no-hook-calls'>No hook calls in this period.</p>
              : (
                <div class={styles.charts}>
                  {a.hookCalls.filter((h) => h.succeeded + h.failed > 0).map((h) => (
                    <TimeChart
                      key={h.hookPoint} testId={`chart-hook-${h.hookPoint}`} title={`${h.hookPoint}: ${h.succeeded} answered, ${h.failed} refused`} dates={h.daily.map((d) => d.date)}
                      series={[{ label: 'Answered', color: COLORS.green, values: h.daily.map((d) => d.succeeded) }, { label: 'Refused', color: COLORS.red, values: h.daily.map((d) => d.failed) }]}
                    />
                  ))}
                </div>
                )}
          </div>
          )}
    </>
  )
}
