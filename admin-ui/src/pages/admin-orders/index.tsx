import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { OrderStatusBadge } from '../../components/status-badge/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatDate } from '../../lib/format.ts'
import { formatMoney } from '../../lib/money.ts'
import { ORDER_STATUSES, ORDER_STATUS_LABEL, type Order } from '../../lib/commerce-types.ts'
import type { Envelope } from '../../lib/types.ts'
import styles from '../admin-products/style.module.css'

const PAGE_SIZE = 20

function OrderTable ({ orders }: { orders: Order[] }) {
  return (
    <div class='table-scroll'>
      <table data-testid='orders'>
        <thead><tr><th scope='col'>Order</th><th scope='col'>Placed</th><th scope='col'>Customer</th><th scope='col'>Total</th><th scope='col'>Status</th></tr></thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id}>
              <td><a href={`/admin/orders/${order.id}`}>#{order.orderNumber}</a></td>
              <td>{formatDate(order.createdAt)}</td>
              <td>{order.customer.name}</td>
              <td>{formatMoney(order.amount, order.currency)}</td>
              <td><OrderStatusBadge status={order.status} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** /admin/orders: newest first, filtered by status, or the one order with a number; the query lives in the URL. */
export default function AdminOrders () {
  const { api } = useSession()
  const { query, route } = useLocation()
  const number = query.number ?? ''
  const status = query.status ?? ''
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1)
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE), ...(number !== '' ? { number } : {}), ...(status !== '' ? { status } : {}) })
  const orders = useResource<Envelope<Order>>(`/merchant/orders?${params}`, () => api.get(`/merchant/orders?${params}`))
  const [search, setSearch] = useState(number)

  function go (next: { number?: string, status?: string, page?: number }) {
    const merged = { number: next.number ?? number, status: next.status ?? status, page: String(next.page ?? 1) }
    const search = new URLSearchParams(Object.entries(merged).filter(([k, v]) => v !== '' && !(k === 'page' && v === '1')))
    route(search.size === 0 ? '/admin/orders' : `/admin/orders?${search}`)
  }

  return (
    <AdminShell>
      {() => (
        <section>
          <h1>Orders</h1>
          <form class={styles.filters} role='search' onSubmit={(e) => { e.preventDefault(); go({ number: search.trim() }) }}>
            <label>Order number<input type='search' inputMode='numeric' value={search} maxLength={20} onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} /></label>
            <label>Status
              <select value={status} onChange={(e) => go({ status: (e.currentTarget as HTMLSelectElement).value })}>
                <option value=''>Any status</option>
                {ORDER_STATUSES.map((s) => <option key={s} value={s}>{ORDER_STATUS_LABEL[s]}</option>)}
              </select>
            </label>
            <button type='submit' class='secondary'>Find</button>
          </form>
          <ErrorMessage message={orders.error} />
          {orders.data === null
            ? orders.loading && <Loading what='Loading orders' />
            : orders.data.data.length === 0
              ? (
                <Empty>
                  {number !== '' || status !== ''
                    ? <>No order matches. <a href='/admin/orders' onClick={() => setSearch('')}>Show all orders</a></>
                    : <>No orders yet. They appear here as customers check out on your store.</>}
                </Empty>
                )
              : (
                <>
                  <p class='muted' role='status'>{orders.data.total === 1 ? '1 order' : `${orders.data.total} orders`}</p>
                  <OrderTable orders={orders.data.data} />
                  <Pager page={page} limit={orders.data.limit} total={orders.data.total} onPage={(p) => go({ page: p })} />
                </>
                )}
        </section>
      )}
    </AdminShell>
  )
}
