import t from 'tap'
import { build } from '../../helper.ts'
import { installApp, receiver, registerWebhook } from './helpers.ts'

/**
 * The dispatchers are woken by a NOTIFY the writing process sends after its commit (server/events.ts
 * wakeDispatchers). A process that dies between the two leaves a committed event with no wake-up: it
 * must still be delivered, by the dispatchers' sweep.
 */
t.test('an event committed without its wake-up (the writer died before sending it) is delivered by the sweep', async (t) => {
  const app = await build(t)
  const sink = await receiver(t)
  const installed = await installApp(app)
  await registerWebhook(app, installed, sink.url, ['product.updated'])
  // the row alone, as the dead process left it: a plain insert, no NOTIFY
  await app.database.executeSql(
    "insert into outbox_events (id, business_id, event, data) values ($1, $2, 'product.updated', $3::jsonb)",
    ['evt_nowake_1', installed.businessId, JSON.stringify({ id: 'prod_nowake', name: 'Left behind', price: 100 })]
  )
  const [delivered] = await sink.waitFor(1)
  t.match(JSON.parse(delivered.body), { event: 'product.updated', businessId: installed.businessId, data: { id: 'prod_nowake', name: 'Left behind' } }, 'the event, delivered')
})
