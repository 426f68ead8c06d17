import { useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { categoryLabel, formatDate } from '../../lib/format.ts'
import { describeScope, type MarketplaceApp } from '../../lib/types.ts'
import { isInstalled, type InstallationItem } from '../../lib/admin-types.ts'
import { openHref } from '../../components/admin-shell/index.tsx'
import type { Business as ContractBusiness } from '../../../../sdk/src/contract/resources.ts'
import { AppIcon } from '../../components/app-icon/index.tsx'
import { PlanList } from '../../components/plan-list/index.tsx'
import { ErrorMessage, Loading } from '../../components/states/index.tsx'
import { RatingSummary } from '../../components/stars/index.tsx'
import { ListingReviews } from './reviews.tsx'
import { MyReview } from './my-review.tsx'
import styles from './style.module.css'

/** What the install link needs of the merchant's business (the contract's resource). */
type Business = Pick<ContractBusiness, 'id' | 'slug'>

/**
 * Install (DESIGN §15): to the app's appUrl with the merchant's business, where the app starts OAuth and
 * the consent screen finishes it; Open when it is installed; said plainly when the app has no appUrl.
 */
function InstallBox ({ listing }: { listing: MarketplaceApp }) {
  const { session, api } = useSession()
  const canInstall = session?.user.role === 'MERCHANT'
  const business = useResource<Business>(canInstall ? 'merchant-business' : null, () => api.get('/merchant/business'))
  const installs = useResource<{ data: InstallationItem[] }>(canInstall ? 'admin-installations' : null, () => api.get('/merchant/installations'))
  const mine = installs.data?.data.find((item) => item.appId === listing.id)
  if (mine !== undefined && isInstalled(mine)) {
    const open = openHref(mine)
    return (
      <div class={styles.install} data-testid='install-box'>
        <p><strong>Installed</strong></p>
        {open === null
          ? <a class='button secondary' href='/admin/apps'>Manage in admin</a>
          : <a class='button' href={open.href} {...(open.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>Open</a>}
      </div>
    )
  }
  if (listing.appUrl === null) {
    return (
      <div class={styles.install} data-testid='install-box'>
        <p><strong>Not installable yet</strong></p>
        <p class='muted'>This app has no install address: its developer has to add one before merchants can install it.</p>
      </div>
    )
  }
  if (!canInstall) {
    return (
      <div class={styles.install} data-testid='install-box'>
        <a class='button' href={`/login?next=${encodeURIComponent(`/apps/${listing.slug}`)}`}>Log in to install</a>
        <p class='muted'>{session === null ? 'Merchants install apps on their business.' : 'Only merchant accounts install apps.'}</p>
      </div>
    )
  }
  const href = business.data === null ? null : installHref(listing.appUrl, business.data)
  return (
    <div class={styles.install} data-testid='install-box'>
      {mine !== undefined && <p class='muted' role='status'>{mine.status === 'PENDING' ? 'Finishing install…' : 'The last install did not finish: try again.'}</p>}
      {href === null ? <button disabled>Install</button> : <a class='button' href={href}>Install</a>}
      <p class='muted'>You go to {new URL(listing.appUrl).host}, which sends you back here to approve its access.</p>
    </div>
  )
}

/** The app's install entry with the business it is for (DESIGN §15). */
export function installHref (appUrl: string, business: Business): string {
  const url = new URL(appUrl)
  url.searchParams.set('businessId', business.id)
  url.searchParams.set('business', business.slug)
  return url.toString()
}

/** `/apps/:slug`: one published app. */
export default function AppListing () {
  const { params } = useRoute()
  const { api, session } = useSession()
  const slug = params.slug ?? ''
  // moves when the merchant's review changes: the rating and the list are read again
  const [version, setVersion] = useState(0)
  const app = useResource<MarketplaceApp>(`/marketplace/apps/${slug}#${version}`, () => api.get(`/marketplace/apps/${encodeURIComponent(slug)}`))

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
          <a class={styles.ratingLink} href='#listing-reviews-title'><RatingSummary rating={listing.rating} /></a>
        </div>
        <InstallBox listing={listing} />
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
          {session?.user.role === 'MERCHANT' && <MyReview listing={listing} onChange={() => setVersion((v) => v + 1)} />}
          <ListingReviews listing={listing} version={version} />
        </div>
        <aside class={`panel ${styles.facts}`}>
          <h2>Pricing</h2>
          <PlanList pricing={listing.pricing} />
          <h2>It can access</h2>
          <ul class={styles.scopes} data-testid='approved-scopes'>{listing.scopes.map((s) => <li key={s} title={s}>{describeScope(s)}</li>)}</ul>
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
