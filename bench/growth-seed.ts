import { sql, type SQL } from 'drizzle-orm'

/**
 * Set-based seeding for the growth bench and its tests (generate_series in one statement per chunk,
 * never a row at a time from Node): orders, reviews and webhook deliveries of made-up but valid shape.
 */

/** Statuses in the proportions of a store that runs: most orders delivered, some cancelled. */
const STATUS_CASE = sql.raw('(array[\'DELIVERED\',\'DELIVERED\',\'DELIVERED\',\'DELIVERED\',\'DELIVERED\',\'CONFIRMED\',\'PENDING\',\'CANCELLED\'])[1 + (g % 8)]')

export interface OrderSeed {
  businessId: string
  /** Products of the business an order's one line takes (by turns). */
  productIds: string[]
  count: number
  /** The order numbers and ids start after this (several seeds into one business). */
  from?: number
  /** Orders are spread evenly over the days before now. */
  days: number
  /** Id prefix, unique per seed run. */
  tag: string
}

/** One insert of `count` orders of one business (one line each), spread over `days` days before now. */
export function ordersInsert (seed: OrderSeed): SQL {
  const from = seed.from ?? 0
  const products = `array[${seed.productIds.map((id) => `'${id.replace(/'/g, "''")}'`).join(',')}]`
  return sql`insert into orders (id, business_id, order_number, status, items, subtotal, amount, currency, delivery_method, payment_method, payment_status, customer, created_at, updated_at)
    select ${seed.tag} || '_' || g, ${seed.businessId}, 'G' || g, ${STATUS_CASE},
      jsonb_build_array(jsonb_build_object('productId', (${sql.raw(products)})[1 + g % ${seed.productIds.length}], 'name', 'Product ' || (1 + g % ${seed.productIds.length}),
        'quantity', 1 + g % 3, 'unitPrice', 500, 'total', 500 * (1 + g % 3))),
      500 * (1 + g % 3), 500 * (1 + g % 3), 'USD', 'PICKUP', 'CASH', 'PENDING', '{"name":"Bench","phone":"","email":"bench@example.com"}'::jsonb,
      now() - (${seed.days}::float8 * 86400 * (g - ${from})::float8 / ${seed.count}::float8) * interval '1 second',
      now()
    from generate_series(${from + 1}::int, ${from + seed.count}::int) as g`
}

export interface DeliverySeed {
  appId: string
  installationId: string
  webhookId: string
  businessId: string
  count: number
  from?: number
  /** Deliveries are spread evenly over the days before now. */
  days: number
  tag: string
}

const DELIVERY_EVENT = sql.raw('(array[\'order.created\',\'order.status_changed\',\'product.updated\',\'review.created\'])[1 + (g % 4)]')
/** One in 20 deliveries failed, one in 50 still pending: the console's status filters have something to find. */
const DELIVERY_STATUS = sql.raw('case when g % 50 = 0 then \'PENDING\' when g % 20 = 0 then \'FAILED\' else \'SUCCEEDED\' end')

/** One insert of `count` finished webhook deliveries of one registration, spread over `days` days before now (with their attempt rows). */
export function deliveriesInsert (seed: DeliverySeed): SQL {
  const from = seed.from ?? 0
  return sql`with made as (
    insert into webhook_deliveries (id, webhook_id, installation_id, app_id, business_id, event_id, event, data, status, attempts, cycle_attempts,
      last_status_code, last_duration_ms, next_attempt_at, occurred_at, created_at, completed_at)
    select ${seed.tag} || '_' || g, ${seed.webhookId}, ${seed.installationId}, ${seed.appId}, ${seed.businessId}, null, ${DELIVERY_EVENT},
      jsonb_build_object('id', 'ord_' || g, 'orderNumber', 'G' || g, 'status', 'CONFIRMED', 'amount', 1500),
      ${DELIVERY_STATUS}, 1, 1, case when g % 20 = 0 then 500 else 200 end, 20 + g % 80,
      case when g % 50 = 0 then now() + interval '1 day' end,
      t.at, t.at, case when g % 50 = 0 then null else t.at end
    from generate_series(${from + 1}::int, ${from + seed.count}::int) as g,
      lateral (select now() - (${seed.days}::float8 * 86400 * (g - ${from})::float8 / ${seed.count}::float8) * interval '1 second' as at) t
    returning id, created_at, last_status_code, last_duration_ms)
  insert into webhook_attempts (id, delivery_id, attempt, status_code, duration_ms, created_at)
  select id || '_1', id, 1, last_status_code, last_duration_ms, created_at from made`
}

export interface ReviewSeed { businessId: string, productIds: string[], count: number, tag: string, days: number }

/** One insert of `count` reviews of one business, ratings 1–5 by turns (skewed to 4 and 5). */
export function reviewsInsert (seed: ReviewSeed): SQL {
  const products = `array[${seed.productIds.map((id) => `'${id.replace(/'/g, "''")}'`).join(',')}]`
  return sql`insert into reviews (id, business_id, product_id, rating, text, author_name, created_at)
    select ${seed.tag} || '_' || g, ${seed.businessId}, (${sql.raw(products)})[1 + g % ${seed.productIds.length}],
      (array[5,4,5,3,5,4,2,5,1,4])[1 + g % 10], 'Fine', 'Bench',
      now() - (${seed.days}::float8 * 86400 * g::float8 / ${seed.count}::float8) * interval '1 second'
    from generate_series(1, ${seed.count}::int) as g`
}
