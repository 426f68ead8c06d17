import { sql } from 'drizzle-orm'
import { ORDER_STATUSES } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { badRequest, notFound } from './errors.ts'
import { rows } from '../../server/db/rows.ts'
import { MAX_DASHBOARD_DAYS, type Dashboard, type DashboardQuery } from './schemas.ts'

export const DEFAULT_DASHBOARD_DAYS = 30
export { MAX_DASHBOARD_DAYS }
export const TOP_PRODUCTS = 5

const DAY_MS = 86_400_000
const dayNumber = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

/**
 * Dashboard for the days from..to (inclusive) in the business's time zone, all in SQL.
 * Revenue, orderCount, averageOrderValue, daily and topProducts leave CANCELLED orders out;
 * ordersByStatus counts every status. Days without orders are zero-filled.
 */
export async function dashboard (executor: Executor, businessId: string, query: DashboardQuery = {}): Promise<Dashboard> {
  const [business] = await rows(executor,
    sql<{ timezone: string, today: string }>`select timezone, (now() at time zone timezone)::date::text as today from businesses where id = ${businessId}`)
  if (business === undefined) throw notFound('business_not_found', 'Business')
  const tz = business.timezone
  const to = query.to ?? business.today
  const from = query.from ?? isoDay(dayNumber(to) - (DEFAULT_DASHBOARD_DAYS - 1))
  const span = dayNumber(to) - dayNumber(from) + 1
  if (span < 1) throw badRequest('dashboard_period_invalid', 'querystring/from must not be after to')
  if (span > MAX_DASHBOARD_DAYS) throw badRequest('dashboard_period_invalid', `The period may span at most ${MAX_DASHBOARD_DAYS} days`)

  // created_at in [from 00:00, to+1 00:00) of the business's zone: a range the (business, created_at) index serves
  const inPeriod = sql`o.business_id = ${businessId}
    and o.created_at >= (${from}::date::timestamp at time zone ${tz})
    and o.created_at < ((${to}::date + 1)::timestamp at time zone ${tz})`

  const byStatus = await rows(executor, sql<{ status: string, orders: number, revenue: string }>`
    select o.status, count(*)::int as orders, coalesce(sum(o.amount), 0)::bigint::text as revenue
    from orders o where ${inPeriod} group by o.status`)
  const daily = await rows(executor, sql<{ date: string, revenue: string, orders: number }>`
    select d.day::date::text as date, coalesce(sum(o.amount), 0)::bigint::text as revenue, count(o.id)::int as orders
    from generate_series(${from}::date, ${to}::date, interval '1 day') as d(day)
    left join orders o on ${inPeriod} and o.status <> 'CANCELLED' and (o.created_at at time zone ${tz})::date = d.day::date
    group by d.day order by d.day`)
  const top = await rows(executor, sql<{ productId: string, name: string, quantity: number, revenue: string }>`
    select i.item->>'productId' as "productId", max(i.item->>'name') as name,
      sum((i.item->>'quantity')::int)::int as quantity, sum((i.item->>'total')::bigint)::text as revenue
    from orders o cross join lateral jsonb_array_elements(o.items) as i(item)
    where ${inPeriod} and o.status <> 'CANCELLED'
    group by 1 order by sum((i.item->>'total')::bigint) desc, 1 limit ${TOP_PRODUCTS}`)

  const ordersByStatus: Record<string, number> = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0]))
  let revenue = 0
  let orderCount = 0
  for (const row of byStatus) {
    ordersByStatus[row.status] = row.orders
    if (row.status === 'CANCELLED') continue
    revenue += Number(row.revenue)
    orderCount += row.orders
  }
  return {
    from,
    to,
    revenue,
    orderCount,
    averageOrderValue: orderCount === 0 ? 0 : Math.round(revenue / orderCount),
    ordersByStatus,
    topProducts: top.map((row) => ({ productId: row.productId, name: row.name, quantity: row.quantity, revenue: Number(row.revenue) })),
    daily: daily.map((row) => ({ date: row.date, revenue: Number(row.revenue), orders: row.orders }))
  }
}
