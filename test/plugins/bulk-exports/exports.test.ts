import t from 'tap'
import { build } from '../../helper.ts'
import { call, installApp } from '../app-api/fixtures.ts'
import { download, finishedExport, startExport } from './helpers.ts'

t.test('a bulk export of orders: 202 RUNNING, then COMPLETED with a file whose lines, size and sha256 match its answer', async (t) => {
  const app = await build(t)
  const installed = await installApp(app, ['read_orders', 'read_products', 'read_reviews'])
  const list = (await call(app, installed, 'GET', '/app-api/orders?updatedSince=1970-01-01T00:00:00Z&limit=50')).json()

  const started = await startExport(app, installed, { resource: 'orders' })
  t.match(started, { id: /^bex_/, status: 'RUNNING', resource: 'orders', url: null, rowCount: null })
  const done = await finishedExport(app, installed, started.id)
  t.equal(done.status, 'COMPLETED', done.error ?? '')
  const file = await download(app, done)
  t.equal(file.response.headers['content-type'], 'application/gzip')
  t.equal(file.size, done.sizeBytes)
  t.equal(file.sha256, done.sha256)
  t.equal(file.lines.length, done.rowCount)
  t.ok(file.endsWithNewline)
  t.same(file.lines.slice(0, list.data.length), list.data, 'each line is the record as the list in cursor mode shows it, in the same order')
})
