import type { AppStatus } from '../../lib/types.ts'
import { ORDER_STATUS_LABEL, PRODUCT_STATUS_LABEL, type OrderStatus, type ProductStatus } from '../../lib/commerce-types.ts'
import styles from './style.module.css'

const LABEL: Record<AppStatus, string> = { DRAFT: 'Draft', PENDING_REVIEW: 'Pending review', APPROVED: 'Approved' }

/** An app's review status; a draft whose last review asked for changes says so. */
export function StatusBadge ({ status, changesRequested = false }: { status: AppStatus, changesRequested?: boolean }) {
  if (status === 'DRAFT' && changesRequested) return <span class={`${styles.badge} ${styles.CHANGES_REQUESTED}`} data-status='CHANGES_REQUESTED'>Changes requested</span>
  return <span class={`${styles.badge} ${styles[status]}`} data-status={status}>{LABEL[status]}</span>
}

export function PublishedBadge ({ published }: { published: boolean }) {
  return published ? <span class={`${styles.badge} ${styles.published}`}>Published</span> : <span class={`${styles.badge} ${styles.unpublished}`}>Not published</span>
}

/** An order's or a product's status, in words, coloured by how far along it is. */
export function OrderStatusBadge ({ status }: { status: OrderStatus }) {
  return <span class={`${styles.badge} ${styles[`order${status}`]}`} data-status={status}>{ORDER_STATUS_LABEL[status]}</span>
}

export function ProductStatusBadge ({ status }: { status: ProductStatus }) {
  return <span class={`${styles.badge} ${styles[`product${status}`]}`} data-status={status}>{PRODUCT_STATUS_LABEL[status]}</span>
}
