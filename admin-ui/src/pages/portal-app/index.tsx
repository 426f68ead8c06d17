import { useLocation, useRoute } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { DeveloperApp } from '../../lib/types.ts'
import { RequireRole } from '../../components/require-role/index.tsx'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { PublishedBadge, StatusBadge } from '../../components/status-badge/index.tsx'
import { ErrorMessage, Loading } from '../../components/states/index.tsx'
import { SettingsSection } from './settings-section.tsx'
import { CredentialsSection } from './credentials-section.tsx'
import { ManifestSection } from './manifest-section.tsx'
import { ReviewSection } from './review-section.tsx'
import { TestInstallSection } from './test-install-section.tsx'
import { MediaSection } from './media-section.tsx'
import { AnalyticsSection } from './analytics-section.tsx'
import { DeliveriesSection } from './deliveries-section.tsx'
import { HookCallsSection } from './hook-calls-section.tsx'
import { ChecksSection } from './checks-section.tsx'
import { ApiVersionsSection } from './api-versions-section.tsx'
import { EarningsSection } from './earnings/index.tsx'
import { AppReviewsSection } from './app-reviews-section.tsx'
import styles from './style.module.css'

const TABS = [
  { id: 'settings', label: 'Settings', Section: SettingsSection },
  { id: 'credentials', label: 'Credentials', Section: CredentialsSection },
  { id: 'manifest', label: 'Manifest', Section: ManifestSection },
  // the app checks (DESIGN §18): what a reviewer will see first
  { id: 'checks', label: 'Checks', Section: ChecksSection },
  { id: 'review', label: 'Review', Section: ReviewSection },
  { id: 'test', label: 'Test install', Section: TestInstallSection },
  { id: 'media', label: 'Media', Section: MediaSection },
  // the developer console (DESIGN §16): the same screens for the sandbox's test installs and for merchants' installs
  { id: 'analytics', label: 'Analytics', Section: AnalyticsSection },
  // app billing (DESIGN §23): what merchants' invoices paid for the app
  { id: 'earnings', label: 'Earnings', Section: EarningsSection },
  // businesses' reviews of the app (DESIGN §24), with the developer's answers; not "Reviews", which a search for the Review tab would find too
  { id: 'ratings', label: 'Ratings', Section: AppReviewsSection },
  { id: 'deliveries', label: 'Deliveries', Section: DeliveriesSection },
  { id: 'hook-calls', label: 'Hook calls', Section: HookCallsSection },
  { id: 'api-versions', label: 'API versions', Section: ApiVersionsSection }
] as const

function PortalApp () {
  const { api } = useSession()
  const { params } = useRoute()
  const { query, route } = useLocation()
  const appId = params.appId ?? ''
  const app = useResource<DeveloperApp>(`/developer/apps/${appId}`, () => api.get(`/developer/apps/${encodeURIComponent(appId)}`))
  // /portal/apps/:appId/:tab, or ?tab= (older links)
  const tab = TABS.find((t) => t.id === (params.tab ?? query.tab)) ?? TABS[0]

  if (app.data === null) {
    return (
      <section>
        <p><a href='/portal'>← Your apps</a></p>
        {app.loading ? <Loading what='Loading the app' /> : <ErrorMessage message={app.error} />}
      </section>
    )
  }
  const { Section } = tab
  return (
    <section data-testid='portal-app'>
      <p><a href='/portal'>← Your apps</a></p>
      <div class={styles.head}>
        <AppIcon name={app.data.name} iconUrl={app.data.iconUrl} />
        <div class={styles.titles}>
          <h1>{app.data.name}</h1>
          <span class='muted'>{app.data.slug} · version {app.data.version}</span>
        </div>
        <StatusBadge status={app.data.status} changesRequested={app.data.changesRequested} isPublished={app.data.isPublished} />
        <PublishedBadge published={app.data.isPublished} />
      </div>
      <ErrorMessage message={app.error} />
      <nav class={styles.tabs} role='tablist'>
        {TABS.map((t) => (
          <button key={t.id} type='button' role='tab' aria-selected={t.id === tab.id} class={t.id === tab.id ? styles.active : ''} onClick={() => route(`/portal/apps/${encodeURIComponent(appId)}/${t.id}`, true)}>{t.label}</button>
        ))}
      </nav>
      <div class={`panel ${styles.section}`} role='tabpanel'>
        <Section key={tab.id} app={app.data} reload={app.reload} />
      </div>
    </section>
  )
}

/** `/portal/apps/:appId`: everything about one app, one tab per job. */
export default function PortalAppPage () {
  return <RequireRole role='DEVELOPER'><PortalApp /></RequireRole>
}
