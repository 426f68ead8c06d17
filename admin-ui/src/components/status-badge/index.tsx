import type { AppStatus } from '../../lib/types.ts'
import styles from './style.module.css'

const LABEL: Record<AppStatus, string> = { DRAFT: 'Draft', PENDING_REVIEW: 'Pending review', APPROVED: 'Approved' }

export function StatusBadge ({ status }: { status: AppStatus }) {
  return <span class={`${styles.badge} ${styles[status]}`} data-status={status}>{LABEL[status]}</span>
}

export function PublishedBadge ({ published }: { published: boolean }) {
  return published ? <span class={`${styles.badge} ${styles.published}`}>Published</span> : <span class={`${styles.badge} ${styles.unpublished}`}>Not published</span>
}
