import { formatDate } from '../../lib/format.ts'
import { ACTOR_LABEL, describeActivity, resourceHref, RESOURCE_LABEL, type ActivityEntry } from '../../lib/activity.ts'
import styles from './style.module.css'

/**
 * Who did what, when: an order's timeline, or the business's activity (with `showResource`, a link to each thing changed).
 * `busy` while the rows shown are the previous page's and the next page is loading.
 */
export function ActivityList ({ entries, showResource = false, label, busy = false }: {
  entries: ActivityEntry[], showResource?: boolean, label: string, busy?: boolean
}) {
  return (
    <ol class={styles.list} aria-label={label} aria-busy={busy} data-testid='activity'>
      {entries.map((entry) => {
        const href = showResource ? resourceHref(entry) : null
        return (
          <li key={entry.id} class={styles.entry} data-testid='activity-entry' data-actor={entry.actor.type}>
            <span class={`${styles.actor} ${styles[entry.actor.type]}`}>{ACTOR_LABEL[entry.actor.type]}</span>
            <span class={styles.what}>
              {entry.actor.type !== 'platform' && <strong>{entry.actor.name}</strong>}
              {entry.actor.type === 'platform' && <strong>The platform</strong>}
              {' '}{describeActivity(entry)}
              {showResource && (
                <span class={styles.resource}>
                  {' · '}{href === null ? RESOURCE_LABEL[entry.resource.type] : <a href={href}>{RESOURCE_LABEL[entry.resource.type]}: <code>{entry.resource.id}</code></a>}
                </span>
              )}
            </span>
            <time class={styles.when} dateTime={entry.at}>{formatDate(entry.at)}</time>
          </li>
        )
      })}
    </ol>
  )
}
