import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../../server/db/client.ts'

/**
 * PGlite runs in this thread and never waits on I/O, so a queue of callers hands it on from one
 * query to the next in microtasks: before each query queued for a turn of the event loop, 16 writers
 * kept every timer and socket waiting until the last of them was done (issue #28 item 10: no webhook
 * left the process while the bench's writers ran). Played here with 16 writers and a client that
 * talks to a local HTTP server meanwhile: the loop must keep turning, and sockets must be served.
 */
t.test('16 PGlite writers in a tight loop leave the event loop its turns: timers run and HTTP round trips complete meanwhile', async (t) => {
  const database = await openDatabase({ databaseUrl: null, dataDir: null })
  t.teardown(() => database.close())
  await database.executeSql('create table turns (id serial primary key, n int not null)')
  const server = createServer((_req, res) => res.end('ok'))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`

  // a box, not a let: the loops below read what the writers' end sets
  const state = { writing: true }
  let turns = 0
  const tick = () => { turns++; if (state.writing) setImmediate(tick) }
  setImmediate(tick)
  let roundTrips = 0
  const client = (async () => {
    while (state.writing) {
      await (await fetch(url)).text()
      if (state.writing) roundTrips++
    }
  })()

  const TRANSACTIONS = 50
  await Promise.all(Array.from({ length: 16 }, async (_, writer) => {
    for (let i = 0; i < TRANSACTIONS; i++) {
      await database.db.transaction(async (tx) => { await tx.execute(sql`insert into turns (n) values (${writer * TRANSACTIONS + i})`) })
    }
  }))
  const turnsWhileWriting = turns
  const roundTripsWhileWriting = roundTrips
  state.writing = false
  await client

  const [{ n }] = (await database.executeSql('select count(*)::int as n from turns')).rows
  t.equal(n, 16 * TRANSACTIONS, 'every transaction committed')
  t.ok(turnsWhileWriting >= 16, `the event loop turned ${turnsWhileWriting} times during the 800 transactions (it turned 0–1 times before)`)
  t.ok(roundTripsWhileWriting >= 1, `${roundTripsWhileWriting} HTTP round trips completed during the writes (none did before)`)
})
