import { useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import type { Product, Review } from '../../lib/commerce-types.ts'
import type { Envelope } from '../../lib/types.ts'
import styles from './style.module.css'

const PAGE_SIZE = 10

function ReviewItem ({ review, productName, onDeleted }: { review: Review, productName: string, onDeleted: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const remove = async () => {
    if (await action.run(async () => { await api.delete(`/merchant/reviews/${review.id}`); return true }) !== null) onDeleted()
  }
  return (
    <li class='panel'>
      <div class={styles.top}>
        <span class={styles.stars} role='img' aria-label={`${review.rating} out of 5 stars`}>{'★'.repeat(review.rating)}{'☆'.repeat(5 - review.rating)}</span>
        <strong>{review.authorName}</strong>
        <span class='muted'>on {productName} · {formatDate(review.createdAt)}</span>
      </div>
      {review.text !== '' && <p class={styles.text}>{review.text}</p>}
      <div class={styles.actions}>
        <ConfirmStep label='Delete' confirmLabel='Delete review' title={`Delete the review by ${review.authorName}`} busy={action.busy} error={action.error} onConfirm={() => { void remove() }}>
          Delete this review by <strong>{review.authorName}</strong>? It leaves your store and apps are told. This cannot be undone.
        </ConfirmStep>
      </div>
    </li>
  )
}

/** /admin/reviews: customers' reviews, newest first, optionally of one product; each can be deleted after a confirm step. */
export default function AdminReviews () {
  const { api } = useSession()
  const { query, route } = useLocation()
  const productId = query.productId ?? ''
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1)
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE), ...(productId !== '' ? { productId } : {}) })
  const reviews = useResource<Envelope<Review>>(`/merchant/reviews?${params}`, () => api.get(`/merchant/reviews?${params}`))
  const products = useResource<Envelope<Product>>('merchant-products-all', () => api.get('/merchant/products?limit=100'))
  const [deleted, setDeleted] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const names = new Map((products.data?.data ?? []).map((p) => [p.id, p.name]))

  function go (next: { productId?: string, page?: number }) {
    const merged = { productId: next.productId ?? productId, page: String(next.page ?? 1) }
    const search = new URLSearchParams(Object.entries(merged).filter(([k, v]) => v !== '' && !(k === 'page' && v === '1')))
    setDeleted(null)
    route(search.size === 0 ? '/admin/reviews' : `/admin/reviews?${search}`)
  }

  return (
    <AdminShell>
      {() => (
        <section>
          <h1 ref={heading} tabIndex={-1}>Reviews</h1>
          {deleted !== null && <Notice>{deleted}</Notice>}
          <div class={styles.filters}>
            <label>Product
              <select value={productId} onChange={(e) => go({ productId: (e.currentTarget as HTMLSelectElement).value })}>
                <option value=''>All products</option>
                {(products.data?.data ?? []).map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
              </select>
            </label>
          </div>
          <ErrorMessage message={reviews.error ?? products.error} />
          {reviews.data === null
            ? reviews.loading && <Loading what='Loading reviews' />
            : reviews.data.data.length === 0
              ? <Empty>{productId !== '' ? 'No reviews of this product yet.' : 'No reviews yet. Customers write them on your store.'}</Empty>
              : (
                <>
                  <p class='muted' role='status'>{reviews.data.total === 1 ? '1 review' : `${reviews.data.total} reviews`}</p>
                  <ul class={styles.list} data-testid='reviews'>
                    {reviews.data.data.map((review) => (
                      <ReviewItem
                        key={review.id} review={review} productName={names.get(review.productId) ?? 'a product'}
                        onDeleted={() => { setDeleted(`The review by ${review.authorName} was deleted`); reviews.reload(); heading.current?.focus() }}
                      />
                    ))}
                  </ul>
                  <Pager page={page} limit={reviews.data.limit} total={reviews.data.total} onPage={(p) => go({ page: p })} />
                </>
                )}
        </section>
      )}
    </AdminShell>
  )
}
