import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { ProductStatusBadge } from '../../components/status-badge/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatMoney } from '../../lib/money.ts'
import { PRODUCT_STATUSES, PRODUCT_STATUS_LABEL, type MerchantBusiness, type Product } from '../../lib/commerce-types.ts'
import type { Envelope } from '../../lib/types.ts'
import styles from './style.module.css'

const PAGE_SIZE = 20

function ProductTable ({ products, business }: { products: Product[], business: MerchantBusiness }) {
  return (
    <div class='table-scroll'>
      <table data-testid='products'>
        <thead><tr><th scope='col'><span class='sr-only'>Picture</span></th><th scope='col'>Name</th><th scope='col'>Price</th><th scope='col'>Stock</th><th scope='col'>Status</th></tr></thead>
        <tbody>
          {products.map((product) => (
            <tr key={product.id}>
              <td class={styles.thumbCell}>{product.imageUrl === '' ? <span class={styles.thumb} aria-hidden='true' /> : <img class={styles.thumb} src={product.imageUrl} alt='' />}</td>
              <td>
                <a href={`/admin/products/${product.id}`}>{product.name}</a>
                {!product.isAvailable && <span class={`muted ${styles.note}`}>Not available</span>}
              </td>
              <td>{formatMoney(product.price, business.currency)}</td>
              <td class={product.stock <= product.lowStockThreshold ? styles.low : undefined}>{product.stock}</td>
              <td><ProductStatusBadge status={product.status} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** /admin/products: the catalogue, searched by name and filtered by status or low stock; the query lives in the URL. */
export default function AdminProducts () {
  const { api } = useSession()
  const { query, route } = useLocation()
  const q = query.q ?? ''
  const status = query.status ?? ''
  const lowStock = query.lowStock === 'true'
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1)
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE), ...(q !== '' ? { q } : {}), ...(status !== '' ? { status } : {}), ...(lowStock ? { lowStock: 'true' } : {}) })
  const products = useResource<Envelope<Product>>(`/merchant/products?${params}`, () => api.get(`/merchant/products?${params}`))
  const [search, setSearch] = useState(q)

  function go (next: { q?: string, status?: string, lowStock?: boolean, page?: number }) {
    const merged = { q: next.q ?? q, status: next.status ?? status, lowStock: (next.lowStock ?? lowStock) ? 'true' : '', page: String(next.page ?? 1) }
    const search = new URLSearchParams(Object.entries(merged).filter(([k, v]) => v !== '' && !(k === 'page' && v === '1')))
    route(search.size === 0 ? '/admin/products' : `/admin/products?${search}`)
  }
  const filtered = q !== '' || status !== '' || lowStock

  return (
    <AdminShell>
      {(_installs, _reload, { business }) => (
        <section>
          <div class={styles.head}>
            <h1>Products</h1>
            <a class='button' href='/admin/products/new'>New product</a>
          </div>
          {query.deleted !== undefined && <Notice>{query.deleted} deleted</Notice>}
          <form class={styles.filters} role='search' onSubmit={(e) => { e.preventDefault(); go({ q: search.trim() }) }}>
            <label>Search by name<input type='search' value={search} maxLength={100} onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} /></label>
            <label>Status
              <select value={status} onChange={(e) => go({ status: (e.currentTarget as HTMLSelectElement).value })}>
                <option value=''>Any status</option>
                {PRODUCT_STATUSES.map((s) => <option key={s} value={s}>{PRODUCT_STATUS_LABEL[s]}</option>)}
              </select>
            </label>
            <label class={styles.check}><input type='checkbox' checked={lowStock} onChange={(e) => go({ lowStock: (e.currentTarget as HTMLInputElement).checked })} /> Low stock only</label>
            <button type='submit' class='secondary'>Search</button>
          </form>
          <ErrorMessage message={products.error} />
          {products.data === null || business === null
            ? products.loading && <Loading what='Loading products' />
            : products.data.data.length === 0
              ? (
                <Empty>
                  {filtered
                    ? <>No product matches. <a href='/admin/products' onClick={() => setSearch('')}>Show all products</a></>
                    : <>No products yet. <a href='/admin/products/new'>Add your first product</a>: it shows on your store once it is active and available.</>}
                </Empty>
                )
              : (
                <>
                  <p class='muted' role='status'>{products.data.total === 1 ? '1 product' : `${products.data.total} products`}</p>
                  <ProductTable products={products.data.data} business={business} />
                  <Pager page={page} limit={products.data.limit} total={products.data.total} onPage={(p) => go({ page: p })} />
                </>
                )}
        </section>
      )}
    </AdminShell>
  )
}
