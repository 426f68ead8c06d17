import type { AppStatus } from '../../lib/types.ts'
import { APP_REVIEW_STATE_WORDS, appReviewState } from '../../../../sdk/src/contract/resources.ts'
import { ORDER_STATUS_LABEL, PRODUCT_STATUS_LABEL, type OrderStatus, type ProductStatus } from '../../lib/commerce-types.ts'
import { CHARGE_STATUS_WORDS, type ChargeStatus } from '../../lib/billing-types.ts'
import styles from './style.module.css'

/**
 * An app's review state in words (the contract's): a draft whose last review asked for changes says so, and a
 * published app whose edits wait for review says it is approved, with what its changes wait for.
 */
export function StatusBadge ({ status, changesRequested = false, isPublished = false }: {
  status: AppStatus
  changesRequested?: boolean
  isPublished?: boolean
}) {
  const state = appReviewState({ status, changesRequested, isPublished })
  return <span class={`${styles.badge} ${styles[state]}`} data-status={state}>{APP_REVIEW_STATE_WORDS[state]}</span>
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

/** An app charge's status (DESIGN §23), in the contract's words. */
export function ChargeStatusBadge ({ status }: { status: ChargeStatus }) {
  return <span class={`${styles.badge} ${styles[`charge${status}`]}`} data-status={status} data-testid='charge-status'>{CHARGE_STATUS_WORDS[status]}</span>
}

/** A test charge: approved like any other, never invoiced. */
export function TestBadge () {
  return <span class={`${styles.badge} ${styles.test}`} data-testid='test-badge'>Test</span>
}
