import t, { type Test } from 'tap'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import { openDatabase } from '../../../server/db/client.ts'
import { holdsDatabase, keepTemplate, readTemplate, restoreTemplate, restoreTemplateAside, templateFile } from '../../../server/db/template.ts'

/** As `npm start` configures itself on an embedded DATA_DIR. */
const configFor = (dataDir: string) => loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false', DATA_DIR: dataDir })

function scratch (t: Test): string {
  const root = mkdtempSync(join(tmpdir(), 'app-platform-template-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  return root
}

t.test('the first start on an empty DATA_DIR keeps the migrated cluster; the next empty DATA_DIR starts from it', async (t) => {
  const root = scratch(t)
  const templateDir = join(root, 'cache')
  const first = join(root, 'first')
  t.notOk(holdsDatabase(first), 'an empty folder holds no database')
  t.equal(readTemplate(templateDir), undefined, 'no template before the first start')

  const app = await buildApp({ config: configFor(first), templateDir })
  await app.ready()
  t.ok(holdsDatabase(first), 'the first start made its cluster (initdb)')
  t.ok(existsSync(templateFile(templateDir)), 'and kept it, migrated, as the template')
  await app.close()

  const booted = await openDatabase({ databaseUrl: null, dataDir: null, loadDataDir: readTemplate(templateDir) })
  const queues = await booted.executeSql('select count(*)::int as n from pgboss.queue')
  t.ok(queues.rows[0].n > 0, "kept once the plugins booted: pg-boss's schema and queues are in it (no DDL on the next first start)")
  const noUsers = await booted.executeSql('select count(*)::int as n from users')
  t.equal(noUsers.rows[0].n, 0, 'and no data')
  await booted.close()

  // a marker only the template has shows that the next start loaded it instead of running initdb
  const kept = await openDatabase({ databaseUrl: null, dataDir: null, loadDataDir: readTemplate(templateDir) })
  await kept.executeSql('create table template_marker (id int)')
  t.equal(await keepTemplate(kept, templateDir), null, 'a template is rewritten whole')
  await kept.close()

  const second = join(root, 'second')
  const again = await buildApp({ config: configFor(second), templateDir })
  await again.ready()
  const { rows } = await again.database.executeSql("select to_regclass('template_marker') is not null as loaded")
  t.equal(rows[0].loaded, true, 'the second empty DATA_DIR started from the template')
  t.equal(await again.database.pendingMigrations(), 0, 'migrated')
  const registered = await again.inject({ method: 'POST', url: '/auth/register', payload: { email: 'rosa@example.com', password: 'correct-horse', name: 'Rosa', role: 'MERCHANT', businessName: 'Rosa' } })
  t.equal(registered.statusCode, 201, registered.body)
  await again.close()

  const reopened = await buildApp({ config: configFor(second), templateDir })
  const users = await reopened.database.executeSql('select count(*)::int as n from users')
  t.equal(users.rows[0].n, 1, 'a DATA_DIR that holds a database is opened, never replaced by the template')
  await reopened.close()
})

t.test('a first start that writes an account (REVIEWER_EMAIL) keeps no template: the next DATA_DIR would start with it', async (t) => {
  const root = scratch(t)
  const templateDir = join(root, 'cache')
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false', DATA_DIR: join(root, 'reviewed'), REVIEWER_EMAIL: 'reviewer@example.com', REVIEWER_PASSWORD: 'reviewer-password' })
  const app = await buildApp({ config, templateDir })
  await app.ready()
  const reviewers = await app.database.executeSql("select count(*)::int as n from users where role = 'REVIEWER'")
  t.equal(reviewers.rows[0].n, 1, 'the boot ensured the reviewer')
  await app.close()
  t.notOk(existsSync(templateFile(templateDir)), 'and kept no template')

  const next = await buildApp({ config: configFor(join(root, 'next')), templateDir })
  await next.ready()
  const users = await next.database.executeSql('select count(*)::int as n from users')
  t.equal(users.rows[0].n, 0, 'the next empty DATA_DIR starts without that account')
  await next.close()
  t.ok(existsSync(templateFile(templateDir)), 'and keeps the template, with no data')
})

t.test('a template folder that cannot be written: the start goes on, and says why no template was kept', async (t) => {
  const root = scratch(t)
  const blocked = join(root, 'a-file')
  writeFileSync(blocked, 'not a folder')
  const database = await openDatabase({ databaseUrl: null, dataDir: null })
  t.teardown(() => database.close())
  t.match(await keepTemplate(database, blocked), /template could not be kept in .*a-file/, 'the problem is returned, not thrown')
  t.equal(readTemplate(blocked), undefined)

  const app = await buildApp({ config: configFor(join(root, 'data')), templateDir: blocked })
  await app.ready()
  t.equal(await app.database.pendingMigrations(), 0, 'the server started all the same')
  await app.close()
})

t.test('a damaged template is not unpacked: the start runs initdb and keeps a new one', async (t) => {
  const root = scratch(t)
  const templateDir = join(root, 'cache')
  mkdirSync(templateDir)
  writeFileSync(templateFile(templateDir), Buffer.alloc(1000, 7))
  const dataDir = join(root, 'data')
  mkdirSync(dataDir)
  t.equal(restoreTemplate(dataDir, templateDir), false, 'not a tarball: nothing restored')
  t.notOk(holdsDatabase(dataDir), 'and no half cluster left behind')
  t.same(readdirSync(dataDir), [], 'nor the unpacking folder')
  t.equal(await restoreTemplateAside(dataDir, templateDir), false, 'nor on a worker thread')
  t.same(readdirSync(dataDir), [], 'which leaves nothing behind either')
  const app = await buildApp({ config: configFor(dataDir), templateDir })
  await app.ready()
  t.equal(await app.database.pendingMigrations(), 0, 'the server started all the same')
  await app.close()
  t.equal(restoreTemplate(join(root, 'again'), templateDir), true, 'a new template was kept in its place')
  t.ok(holdsDatabase(join(root, 'again')), 'and unpacks into pgdata')

  // as main.ts starts an empty DATA_DIR: unpacked on a worker thread while the modules load, awaited by buildApp
  const aside = join(root, 'aside')
  const restoring = restoreTemplateAside(aside, templateDir)
  const started = await buildApp({ config: configFor(aside), templateDir, restoring })
  t.equal(await restoring, true, 'unpacked on a worker thread')
  await started.ready()
  t.equal(await started.database.pendingMigrations(), 0, 'and the server started from it')
  await started.close()
  t.equal(await restoreTemplateAside(join(root, 'none'), join(root, 'no-cache')), false, 'without a template there is nothing to unpack')
})

t.test('the PostgreSQL server and in-memory databases never use a template', async (t) => {
  const database = await openDatabase({ databaseUrl: null, dataDir: null })
  t.teardown(() => database.close())
  t.type(database.dumpDataDir, 'function', 'PGlite can be dumped')
  const server = { ...database, dumpDataDir: undefined }
  t.equal(await keepTemplate(server, join(tmpdir(), 'never-written')), null, 'a database that cannot be dumped keeps nothing')
  t.notOk(existsSync(join(tmpdir(), 'never-written')))
})
