import { AdminShell } from '../../components/admin-shell/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { formatMoney } from '../../lib/money.ts'
import { describeScope, type Envelope } from '../../lib/types.ts'
import type { Dashboard, MerchantBusiness, Product } from '../../lib/commerce-types.ts'
import type { InstalledApp } from '../../lib/admin-types.ts'
import styles from './style.module.css'

function Figures ({ business }: { business: MerchantBusiness }) {
  const { api } = useSession()
  // one request for 30 days: today is its last day (the business's time zone decides the days)
  const dashboard = useResource<Dashboard>('merchant-dashboard', () => api.get('/merchant/analytics/dashboard'))
  if (dashboard.data === null) return dashboard.loading ? <Loading what='Loading sales' /> : <ErrorMessage message={dashboard.error} />
  const today = dashboard.data.daily.at(-1) ?? { orders: 0, revenue: 0 }
  const money = (minor: number) => formatMoney(minor, business.currency)
  const cards: Array<[string, string, string]> = [
    ['Orders today', String(today.orders), 'orders-today'],
    ['Sales today', money(today.revenue), 'sales-today'],
    ['Orders, 30 days', String(dashboard.data.orderCount), 'orders-30'],
    ['Sales, 30 days', money(dashboard.data.revenue), 'sales-30']
  ]
  return (
    <>
      <dl class={styles.figures} data-testid='figures'>
        {cards.map(([label, value, id]) => (
          <div key={id} class='panel' data-testid={id}><dt>{label}</dt><dd>{value}</dd></div>
        ))}
      </dl>
      <p class='muted'>Cancelled orders are left out. <a href='/admin/orders'>All orders</a></p>
    </>
  )
}

function LowStock () {
  const { api } = useSession()
  const low = useResource<Envelope<Product>>('merchant-low-stock', () => api.get('/merchant/products?lowStock=true&limit=10'))
  return (
    <section aria-labelledby='low-stock'>
      <h2 id='low-stock'>Low stock</h2>
      <ErrorMessage message={low.error} />
      {low.data === null
        ? low.loading && <Loading what='Loading stock' />
        : low.data.data.length === 0
          ? <Empty>Every product has more than its low-stock threshold.</Empty>
          : (
            <ul class={`panel ${styles.list}`} data-testid='low-stock'>
              {low.data.data.map((product) => (
                <li key={product.id}>
                  <a href={`/admin/products/${product.id}`}>{product.name}</a>
                  <span class={product.stock === 0 ? styles.out : styles.low}>{product.stock === 0 ? 'Out of stock' : `${product.stock} left`}</span>
                </li>
              ))}
              {low.data.total > low.data.data.length && <li><a href='/admin/products?lowStock=true'>All {low.data.total} low-stock products</a></li>}
            </ul>
            )}
    </section>
  )
}

function ReConsent ({ installs }: { installs: InstalledApp[] }) {
  const asking = installs.filter((install) => install.needsReConsent)
  return (
    <section aria-labelledby='reconsent'>
      <h2 id='reconsent'>Apps asking for new permissions</h2>
      {asking.length === 0
        ? <Empty>No app is waiting for you. <a href='/admin/apps'>Installed apps</a></Empty>
        : (
          <ul class={`panel ${styles.list}`} data-testid='reconsent'>
            {asking.map((install) => (
              <li key={install.installationId}>
                <span><strong>{install.app.name}</strong> asks for: {install.pendingScopes.map(describeScope).join('; ')}</span>
                <a class='button' href={`/admin/apps/${install.installationId}/consent`}>Review permissions</a>
              </li>
            ))}
          </ul>
          )}
    </section>
  )
}

/**
 * /admin: the merchant's home: today's and 30 days' orders and sales, low stock, apps asking for permissions;
 * a staff member sees the parts their permissions open.
 */
export default function AdminHome () {
  return (
    <AdminShell>
      {(installs, _reload, { business, access }) => (
        <section>
          <h1>{business === null ? 'Home' : business.name}</h1>
          {access.can('orders') && (business === null ? <Loading /> : <Figures business={business} />)}
          <div class={styles.columns}>
            {access.can('products') && <LowStock />}
            {access.can('apps') && <ReConsent installs={installs} />}
          </div>
          {!access.can('orders') && !access.can('products') && !access.can('apps') && (
            <Empty>Welcome. The menu lists what you can work on here{access.business !== null ? ` at ${access.business.name}` : ''}.</Empty>
          )}
        </section>
      )}
    </AdminShell>
  )
}
