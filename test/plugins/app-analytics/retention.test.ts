import t from 'tap'
import { sql } from 'drizzle-orm'
import { appDailyCounters } from '../../../server/db/schema/index.ts'
import { rows } from '../../../server/db/rows.ts'
import { prune } from '../../../plugins/app-analytics/reports.ts'
import { COUNTER_RETENTION_DAYS } from '../../../plugins/app-analytics/context.ts'
import { testDatabase } from '../../database.ts'

t.test('prune deletes the daily counters older than the retention and counts them', async (t) => {
  const { db } = await testDatabase(t)
  const [{ today }] = await rows(db, sql<{ today: string }>`select to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as today`)
  const daysAgo = (days: number) => new Date(Date.parse(today) - days * 86_400_000).toISOString().slice(0, 10)
  const counter = (day: string, metric: string) => ({ appId: 'app_1', day, sandbox: false, metric, value: 1 })
  await db.insert(appDailyCounters).values([
    counter(daysAgo(COUNTER_RETENTION_DAYS + 2), 'installs'), counter(daysAgo(COUNTER_RETENTION_DAYS + 1), 'installs'),
    counter(daysAgo(COUNTER_RETENTION_DAYS), 'installs'), counter(today, 'installs')
  ])
  t.equal(await prune(db), 2)
  const left = await rows(db, sql<{ day: string }>`select to_char(day, 'YYYY-MM-DD') as day from app_daily_counters order by day`)
  t.same(left.map((row) => row.day), [daysAgo(COUNTER_RETENTION_DAYS), today])
})
