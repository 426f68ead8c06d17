import { useRoute } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { categoryLabel, formatDate } from '../../lib/format.ts'
import type { MarketplaceApp } from '../../lib/types.ts'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { ErrorMessage, Loading } from '../../components/states/index.tsx'
import styles from './style.module.css'

/** `/apps/:slug`: one published app. */
export default function AppListing () {
  const { params } = useRoute()
  const { session, api } = useSession()
  const slug = params.slug ?? ''
  const app = useResource<MarketplaceApp>(`/marketplace/apps/${slug}`, () => api.get(`/marketplace/apps/${encodeURIComponent(slug)}`))

  if (app.data === null) {
    return (
      <section>
        <p><a href='/'>← Marketplace</a></p>
        {app.loading ? <Loading what='Loading the app' /> : <ErrorMessage message={app.error} />}
      </section>
    )
  }
  const listing = app.data
  return (
    <section data-testid='app-listing'>
      <p><a href='/'>← Marketplace</a></p>
      <div class={styles.head}>
        <AppIcon name={listing.name} iconUrl={listing.iconUrl} size='large' />
        <div class={styles.titles}>
          <h1>{listing.name}</h1>
          <p class='muted'>by {listing.developerName} · {categoryLabel(listing.category)} · version {listing.version}</p>
        </div>
        <div class={styles.install}>
          {/* The listing carries no redirect URL, so an install link cannot be built here (see docs/decisions.md). */}
          <p data-testid='install-hint'><strong>Install from the app's website</strong></p>
          <p class='muted'>{session?.user.role === 'MERCHANT' ? 'The app sends you back here to approve its access.' : 'Merchants start the install on the app’s own site.'}</p>
        </div>
      </div>
      <div class={styles.body}>
        <div>
          <h2>About</h2>
          <p class={styles.description}>{listing.description}</p>
          {listing.screenshots.length > 0 && (
            <>
              <h2>Screenshots</h2>
              <div class={styles.shots}>{listing.screenshots.map((src) => <a key={src} href={src} target='_blank' rel='noreferrer'><img src={src} alt={`${listing.name} screenshot`} /></a>)}</div>
            </>
          )}
        </div>
        <aside class={`panel ${styles.facts}`}>
          <h2>It can access</h2>
          <ul class={styles.scopes} data-testid='approved-scopes'>{listing.scopes.map((s) => <li key={s}><code>{s}</code></li>)}</ul>
          <h2>Details</h2>
          <dl>
            <dt>Installs</dt><dd>{listing.installCount}</dd>
            <dt>Version</dt><dd>{listing.version}</dd>
            <dt>Developer</dt><dd>{listing.developerName}</dd>
            <dt>Published</dt><dd>{formatDate(listing.publishedAt)}</dd>
          </dl>
        </aside>
      </div>
    </section>
  )
}
