import t from 'tap'
import { catalogChanged, createCatalogCache, CATALOG_CHANNEL } from '../../../plugins/commerce/catalog-cache.ts'
import { openDatabase } from '../../../server/db/client.ts'
import { gate, testDatabaseUrl, until } from '../../helper.ts'
import { TestClock } from '../../clock.ts'

const body = (text: string) => async () => text

t.test('createCatalogCache', async (t) => {
  t.test('stores a read and answers the next one from memory, per business and key', async (t) => {
    const cache = createCatalogCache({ maxBytes: 1000, clock: new TestClock() })
    let loads = 0
    const load = async () => { loads++; return `body ${loads}` }
    t.equal(await cache.read('biz_a', 'list', load), 'body 1')
    t.equal(await cache.read('biz_a', 'list', load), 'body 1', 'a hit')
    t.equal(await cache.read('biz_a', 'id:1', load), 'body 2', 'another key is another entry')
    t.equal(await cache.read('biz_b', 'list', load), 'body 3', 'another business is another entry')
    t.match(cache.stats(), { enabled: true, entries: 3, hits: 1, misses: 3 })
  })

  t.test('an invalidation drops the business and only it', async (t) => {
    const cache = createCatalogCache({ maxBytes: 1000, clock: new TestClock() })
    await cache.read('biz_a', 'list', body('a'))
    await cache.read('biz_b', 'list', body('b'))
    cache.invalidate('biz_a')
    t.equal(await cache.read('biz_a', 'list', body('a2')), 'a2')
    t.equal(await cache.read('biz_b', 'list', body('b2')), 'b', 'the other business is still cached')
  })

  t.test('a read that overlaps an invalidation answers but is not stored', async (t) => {
    const cache = createCatalogCache({ maxBytes: 1000, clock: new TestClock() })
    const held = gate()
    const slow = cache.read('biz_a', 'list', async () => { await held.opened; return 'before the change' })
    cache.invalidate('biz_a')
    held.open()
    t.equal(await slow, 'before the change')
    t.equal(await cache.read('biz_a', 'list', body('after')), 'after', 'the overlapping read was not kept')
  })

  t.test('bounded by the bytes of the bodies, least recently used first; a huge body is not kept', async (t) => {
    const cache = createCatalogCache({ maxBytes: 80, clock: new TestClock() })
    await cache.read('biz', 'one', body('x'.repeat(10)))
    await cache.read('biz', 'two', body('y'.repeat(10)))
    await cache.read('biz', 'one', body('unused'))
    for (let i = 0; i < 7; i++) await cache.read('biz', `fill-${i}`, body('z'.repeat(10)))
    t.ok(cache.stats().bytes <= 80)
    t.equal(await cache.read('biz', 'two', body('reloaded')), 'reloaded', 'the least recently used went first')
    await cache.read('biz', 'huge', body('h'.repeat(11)))
    t.equal(await cache.read('biz', 'huge', body('again')), 'again', 'a body over an eighth of the budget is not kept')
  })

  t.test('entries expire after the TTL', async (t) => {
    const clock = new TestClock()
    const cache = createCatalogCache({ maxBytes: 1000, ttlMs: 100, clock })
    await cache.read('biz', 'list', body('old'))
    clock.advance(150)
    t.equal(await cache.read('biz', 'list', body('new')), 'new')
  })

  t.test('disabled (0 bytes, or LISTEN down) it always loads', async (t) => {
    const off = createCatalogCache({ maxBytes: 0, clock: new TestClock() })
    await off.read('biz', 'list', body('one'))
    t.equal(await off.read('biz', 'list', body('two')), 'two')
    t.equal(off.stats().enabled, false)
    off.setEnabled(true)
    t.equal(off.stats().enabled, false, 'a cache configured with 0 bytes stays off')

    const cache = createCatalogCache({ maxBytes: 1000, clock: new TestClock() })
    await cache.read('biz', 'list', body('one'))
    cache.setEnabled(false)
    t.equal(await cache.read('biz', 'list', body('two')), 'two', 'disabling drops the entries')
    t.equal(await cache.read('biz', 'list', body('three')), 'three', 'and keeps nothing')
    cache.setEnabled(true)
    await cache.read('biz', 'list', body('four'))
    t.equal(await cache.read('biz', 'list', body('five')), 'four', 'on again')
  })

  t.test('payloads that are not ours or malformed are harmless', async (t) => {
    const cache = createCatalogCache({ maxBytes: 1000, clock: new TestClock() })
    await cache.read('biz', 'list', body('kept'))
    cache.received('garbage')
    t.equal(await cache.read('biz', 'list', body('other')), 'kept')
    cache.received('someone-else:1:biz')
    t.equal(await cache.read('biz', 'list', body('fresh')), 'fresh', "another process's change evicts too")
  })
})

t.test('catalogChanged: the writing process bypasses the cache until its change commits and comes back', async (t) => {
  const url = await testDatabaseUrl(t)
  const database = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(() => database.close())
  const cache = createCatalogCache({ maxBytes: 1000, clock: new TestClock() })
  const payloads: string[] = []
  await database.listen(CATALOG_CHANNEL, (payload) => { payloads.push(payload); cache.received(payload) })
  const arrived = async (count: number) => await until(async () => payloads.length, (n) => n >= count)

  await cache.read('biz_1', 'list', body('v1'))
  const changed = gate()
  const proceed = gate()
  const transaction = database.db.transaction(async (tx) => {
    await catalogChanged(tx, 'biz_1')
    changed.open()
    await proceed.opened
  })
  await changed.opened
  t.equal(await cache.read('biz_1', 'list', body('v1 read during the write')), 'v1 read during the write', 'bypassed while the change is in flight')
  t.equal(await cache.read('biz_1', 'list', body('not kept')), 'not kept', 'and nothing was stored meanwhile')
  proceed.open()
  await transaction
  await arrived(1)
  t.match(payloads[0], /^[0-9a-f]{12}:\d+:biz_1$/, 'origin:sequence:business')
  t.equal(await cache.read('biz_1', 'list', body('v2')), 'v2', 'after the NOTIFY the business is cached again, from fresh data')
  t.equal(await cache.read('biz_1', 'list', body('unused')), 'v2')

  // a rolled-back change sends no NOTIFY: the business stays out of the cache (for a while), never stale
  await database.db.transaction(async (tx) => {
    await catalogChanged(tx, 'biz_2')
    tx.rollback()
  }).catch(() => {})
  await cache.read('biz_2', 'list', body('one'))
  t.equal(await cache.read('biz_2', 'list', body('two')), 'two', 'a rolled-back change keeps the business uncached')
  t.equal(payloads.length, 1, 'no NOTIFY for the rollback')
})
