import type { MarketplaceApp } from '../../lib/types.ts'
import { categoryLabel } from '../../lib/format.ts'
import { AppIcon } from '../app-icon/index.tsx'
import { RatingSummary } from '../stars/index.tsx'
import styles from './style.module.css'

export function AppCard ({ app }: { app: MarketplaceApp }) {
  return (
    <a class={styles.card} href={`/apps/${app.slug}`} data-testid='app-card'>
      <div class={styles.top}>
        <AppIcon name={app.name} iconUrl={app.iconUrl} />
        <div class={styles.titles}>
          <span class={styles.name}>{app.name}</span>
          <span class={styles.by}>by {app.developerName}</span>
        </div>
      </div>
      <p class={styles.description}>{app.description}</p>
      <RatingSummary rating={app.rating} />
      <div class={styles.meta}>
        <span class={styles.category}>{categoryLabel(app.category)}</span>
        <span>{app.installCount === 1 ? '1 install' : `${app.installCount} installs`}</span>
      </div>
    </a>
  )
}
