import t from 'tap'
import { createCounterBuffer } from '../../../plugins/app-analytics/counters.ts'
import type { Db } from '../../../server/db/client.ts'

t.test('counts are kept by UTC day, the day following the clock across midnight and back', async (t) => {
  let now = Date.parse('2026-11-29T23:59:59.999Z')
  const clock = { now: () => new Date(now), nowMs: () => now }
  // nothing is flushed here: the buffer's merging is what is tested, not its write
  const counters = createCounterBuffer({} as Db, clock, (error) => { throw error }, () => ({ factsOf: async () => new Map() }))
  counters.add('app_1', 'inst_1', 'api.2xx')
  counters.add('app_1', 'inst_1', 'api.2xx')
  t.equal(counters.size, 1, 'two counts of one day merge')
  now += 1
  counters.add('app_1', 'inst_1', 'api.2xx')
  t.equal(counters.size, 2, 'the first millisecond of the next day counts apart')
  now -= 2
  counters.add('app_1', 'inst_1', 'api.2xx')
  t.equal(counters.size, 2, 'a clock set back lands on its own day again')
  counters.add('app_1', 'inst_1', 'api.2xx', 1, '2026-11-01')
  t.equal(counters.size, 3, 'a day named by the caller (a failed write put back) is kept')
})
