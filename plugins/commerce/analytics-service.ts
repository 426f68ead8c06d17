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
 * Dashboard for the days from..to (inclusive) in the business's time zone, from the days the database keeps.
 * Revenue, orderCount, averageOrderValue, daily and topProducts leave CANCELLED orders out;
 * ordersByStatus counts every status. Days without orders are zero-filled.
 */
export async function dashboard (executor: Executor, businessId: string, query: DashboardQuery = {}): Promise<Dashboard> {
  const [business] = await rows(executor,
    sql<{ today: string }>`select (now() at time zone timezone)::date::text as today from businesses where id = ${businessId}`)
  if (business === undefined) throw notFound('business_not_found', 'Business')
  const to = query.to ?? business.today
  const from = query.from ?? isoDay(dayNumber(to) - (DEFAULT_DASHBOARD_DAYS - 1))
  const span = dayNumber(to) - dayNumber(from) + 1
  if (span < 1) throw badRequest('dashboard_period_invalid', 'querystring/from must not be after to')
  if (span > MAX_DASHBOARD_DAYS) throw badRequest('dashboard_period_invalid', `The period may span at most ${MAX_DASHBOARD_DAYS} days`)

  // the days the database keeps per business (order_days, product_days: local dates of the business's zone),
  // so a year reads at most a few thousand rows however many orders it had
  const inPeriod = (table: 'order_days' | 'product_days') =>
    sql`${sql.identifier(table)}.business_id = ${businessId} and ${sql.identifier(table)}.day between ${from}::date and ${to}::date`

  const byStatus = await rows(executor, sql<{ status: string, orders: number, revenue: string }>`
    select status, sum(orders)::int as orders, sum(revenue)::bigint::text as revenue
    from order_days where ${inPeriod('order_days')} group by status`)
  const daily = await rows(executor, sql<{ date: string, revenue: string, orders: number }>`
    select d.day::date::text as date, coalesce(sum(order_days.revenue), 0)::bigint::text as revenue, coalesce(sum(order_days.orders), 0)::int as orders
    from generate_series(${from}::date, ${to}::date, interval '1 day') as d(day)
    left join order_days on ${inPeriod('order_days')} and order_days.status <> 'CANCELLED' and order_days.day = d.day::date
    group by d.day order by d.day`)
  const top = await rows(executor, sql<{ productId: string, name: string, quantity: number, revenue: string }>`
    select product_id as "productId", max(name) as name, sum(quantity)::int as quantity, sum(revenue)::text as revenue
    from product_days where ${inPeriod('product_days')}
    group by product_id having sum(quantity) > 0 order by sum(revenue) desc, product_id limit ${TOP_PRODUCTS}`)

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
