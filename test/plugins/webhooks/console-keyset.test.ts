import t from 'tap'
import { sql } from 'drizzle-orm'
import { build } from '../../helper.ts'
import { installApp, receiver, registerWebhook } from './helpers.ts'
import { rows } from '../../../server/db/rows.ts'

/**
 * #28 item 7: the console's logs page by keyset (created_at, id) with `before=<nextCursor>`, so a deep
 * page costs what the first does. The cursor keeps the database's microseconds: rows created in the
 * same millisecond (and ties on the very same microsecond) are neither skipped nor shown twice.
 */
t.test('console logs page by cursor: every row once, newest first, as the offset pages show them', async (t) => {
  const app = await build(t)
  const target = await receiver(t)
  const installed = await installApp(app)
  const webhook = await registerWebhook(app, installed, target.url)
  const dev = installed.developer
  const base = `/developer/apps/${installed.appId}`
  // 45 deliveries and 45 hook calls: 15 on one microsecond, 15 a microsecond apart within one millisecond, 15 spread out
  const times = sql`(case when n <= 15 then timestamptz '2026-11-20 10:00:00.500123+00'
    when n <= 30 then timestamptz '2026-11-20 10:00:00.500000+00' + (n || ' microseconds')::interval
    else timestamptz '2026-11-20 09:00:00+00' + (n || ' minutes')::interval end)`
  await rows(app.db, sql`insert into webhook_deliveries (id, webhook_id, app_id, installation_id, business_id, event, data, status, created_at)
    select 'dlv_k' || lpad(n::text, 3, '0'), ${webhook.id}, ${installed.appId}, ${installed.installationId}, ${installed.businessId},
      case when n % 3 = 0 then 'product.created' else 'order.created' end, '{}'::jsonb, 'SUCCEEDED', ${times}
    from generate_series(1, 45) as n`)
  await rows(app.db, sql`insert into hook_calls (id, app_id, installation_id, business_id, hook_point, url, success, duration_ms, created_at)
    select 'hc_k' || lpad(n::text, 3, '0'), ${installed.appId}, ${installed.installationId}, ${installed.businessId},
      'checkout.shipping_rates', 'https://app.example.com/rates', n % 2 = 0, 5, ${times}
    from generate_series(1, 45) as n`)

  async function walk (path: string, query: string) {
    const seen: string[] = []
    let before: string | null = null
    for (let page = 1; page <= 20; page++) {
      const response: { statusCode: number, json: () => any } = await app.inject({ url: `${base}/${path}?limit=7&page=${page}${query}${before === null ? '' : `&before=${encodeURIComponent(before)}`}`, headers: dev.auth })
      t.equal(response.statusCode, 200)
      const body: { data: Array<{ id: string }>, nextCursor: string | null } = response.json()
      seen.push(...body.data.map((row) => row.id))
      if (body.nextCursor === null) return { seen, pages: page }
      before = body.nextCursor
    }
    throw new Error('the cursor never ended')
  }
  async function byOffset (path: string, query: string) {
    const seen: string[] = []
    for (let page = 1; page <= 10; page++) seen.push(...(await app.inject({ url: `${base}/${path}?limit=7&page=${page}${query}`, headers: dev.auth })).json().data.map((row: { id: string }) => row.id))
    return seen
  }

  for (const [path, query, expected] of [
    ['deliveries', '', 45], ['deliveries', '&event=order.created', 30], ['hook-calls', '', 45], ['hook-calls', '&success=true', 22]
  ] as const) {
    const { seen, pages } = await walk(path, query)
    t.equal(seen.length, expected, `${path}${query}: every row`)
    t.equal(new Set(seen).size, seen.length, `${path}${query}: none twice`)
    t.equal(pages, Math.ceil(expected / 7), `${path}${query}: the last page says so`)
    t.same(seen, await byOffset(path, query), `${path}${query}: in the order the offset pages show`)
  }
  const first = (await app.inject({ url: `${base}/deliveries?limit=50`, headers: dev.auth })).json()
  t.equal(first.nextCursor, null, 'everything on one page: no next cursor')

  t.test('a cursor that is not one the list gave out is a 400 with its code, never a database error', async (t) => {
    const forged = Buffer.from(JSON.stringify(["2026-11-20'; drop table hook_calls; --", 'x'])).toString('base64url')
    const shapes = ['nonsense', forged, Buffer.from('[1,2]').toString('base64url'), Buffer.from(JSON.stringify(['2026-11-20 10:00:00+00', 'bad id!'])).toString('base64url')]
    for (const path of ['deliveries', 'hook-calls']) {
      for (const before of shapes) {
        const response: { statusCode: number, json: () => any } = await app.inject({ url: `${base}/${path}?before=${encodeURIComponent(before)}`, headers: dev.auth })
        t.equal(response.statusCode, 400, `${path}: ${before.slice(0, 20)}`)
        t.equal(response.json().code, 'cursor_invalid')
      }
    }
    t.equal((await app.inject({ url: `${base}/hook-calls`, headers: dev.auth })).json().total, 45, 'the table is still there')
  })
})
