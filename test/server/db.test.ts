import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { openDatabase } from '../../server/db/client.ts'
import { users } from '../../server/db/schema/index.ts'
import { buildApp } from '../../server/app.ts'
import { testConfig, testDatabaseUrl, SERVER_URL, dropListenConnections, gate, until } from '../helper.ts'

t.test('migrations', async (t) => {
  const url = await testDatabaseUrl(t, { empty: true })
  const database = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(() => database.close())
  t.ok(await database.pendingMigrations() > 0, 'a new database has pending migrations')
  await database.migrate()
  t.equal(await database.pendingMigrations(), 0, 'none pending after migrate')
  await database.migrate()
  t.equal(await database.pendingMigrations(), 0, 'migrating again is a no-op')
  const { rows } = await database.executeSql("select count(*)::int as n from information_schema.tables where table_name = 'products'")
  t.equal(rows[0].n, 1, 'tables exist')
})

t.test('concurrent starts on one PostgreSQL server migrate once', { skip: SERVER_URL === null ? 'needs DATABASE_URL' : false }, async (t) => {
  const url = await testDatabaseUrl(t, { empty: true })
  const a = await openDatabase({ databaseUrl: url, dataDir: null })
  const b = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(async () => { await a.close(); await b.close() })
  await Promise.all([a.migrate(), b.migrate()])
  t.equal(await a.pendingMigrations(), 0)
})

t.test('DATABASE_POOL_SIZE bounds the query connections a process opens (LISTEN has its own)', { skip: SERVER_URL === null ? 'needs DATABASE_URL' : false }, async (t) => {
  const url = await testDatabaseUrl(t, { empty: true }) as string
  const app = await buildApp({ config: testConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '3' }) })
  t.teardown(() => app.close())
  const name = new URL(url).pathname.slice(1)
  await Promise.all(Array.from({ length: 12 }, async () => await app.database.executeSql('select pg_sleep(0.05)')))
  const [{ n }] = (await app.database.executeSql("select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'app-platform'", [name])).rows
  t.ok(n >= 1 && n <= 3, `at most 3 pool connections (${n})`)
  const [{ listening }] = (await app.database.executeSql("select count(*)::int as listening from pg_stat_activity where datname = $1 and application_name = 'app-platform-listen'", [name])).rows
  t.ok(listening >= 3, `the LISTEN connections are apart (${listening})`)
})

t.test('data survives a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-data-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const databaseUrl = await testDatabaseUrl(t)
  const config = { ...testConfig({}, databaseUrl), dataDir: databaseUrl === null ? dataDir : null }

  const first = await buildApp({ config })
  const registered = await first.inject({ method: 'POST', url: '/auth/register', payload: { email: 'keep@example.com', password: 'long-enough', name: 'Keep', role: 'DEVELOPER' } })
  t.equal(registered.statusCode, 201)
  await first.close()

  const second = await buildApp({ config })
  t.teardown(() => second.close())
  const [row] = await second.db.select().from(users).where(eq(users.email, 'keep@example.com'))
  t.ok(row, 'the user is still there')
  const login = await second.inject({ method: 'POST', url: '/auth/login', payload: { email: 'keep@example.com', password: 'long-enough' } })
  t.equal(login.statusCode, 200, 'and can log in')
})

t.test('LISTEN/NOTIFY works on both engines', async (t) => {
  const url = await testDatabaseUrl(t)
  const database = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(() => database.close())
  let receive: (payload: string) => void = () => {}
  const received = new Promise<string>((resolve) => { receive = resolve })
  await database.listen('platform_test', (payload) => receive(payload))
  await database.notify('platform_test', 'hello')
  t.equal(await received, 'hello')
})

t.test('a dropped LISTEN connection is reported, listened to again, and does not crash the process', { skip: SERVER_URL === null ? 'needs DATABASE_URL' : false }, async (t) => {
  const url = await testDatabaseUrl(t) as string
  const database = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(() => database.close())
  const received: string[] = []
  const happened: string[] = []
  const back = gate()
  await database.listen('platform_test', (payload) => received.push(payload), {
    onLost: () => happened.push('lost'),
    onRestored: () => { happened.push('restored'); back.open() }
  })
  t.equal(await dropListenConnections(database, url, 'platform_test'), 1, 'the listening backend was terminated')
  await back.opened
  t.same(happened, ['lost', 'restored'], 'the consumer heard of the gap and of the recovery')
  await database.notify('platform_test', 'after')
  await until(async () => received, (payloads) => payloads.includes('after'))
  t.same(received, ['after'], 'notifications arrive again on the new connection')
})

t.test('unlisten stops the notifications', async (t) => {
  const url = await testDatabaseUrl(t)
  const database = await openDatabase({ databaseUrl: url, dataDir: null })
  t.teardown(() => database.close())
  const received: string[] = []
  const unlisten = await database.listen('platform_test', (payload) => received.push(payload))
  await database.notify('platform_test', 'one')
  await until(async () => received, (payloads) => payloads.length > 0)
  await unlisten()
  // a listener that is still there hears 'two' no later than one that comes after it
  const later: string[] = []
  await database.listen('platform_test', (payload) => later.push(payload))
  await database.notify('platform_test', 'two')
  await until(async () => later, (payloads) => payloads.includes('two'))
  t.same(received, ['one'])
})
