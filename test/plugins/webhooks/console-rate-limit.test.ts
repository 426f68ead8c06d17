import t from 'tap'
import { build } from '../../helper.ts'
import { installApp, receiver, registerWebhook } from './helpers.ts'
import { CONSOLE_WEBHOOK_SENDS_PER_MINUTE } from '../../../plugins/webhooks/console-routes.ts'

// issue #25 item 12: the console's test and replay make the platform send to the app's server; each is rate-limited per developer
t.test('webhook test and replay from the console: a per-developer budget each, then 429 with Retry-After', async (t) => {
  const app = await build(t)
  const target = await receiver(t, () => ({ status: 200, body: 'ok' }))
  const installed = await installApp(app)
  const dev = installed.developer
  const base = `/developer/apps/${installed.appId}`
  const webhook = await registerWebhook(app, installed, target.url)
  const since = new Date(Date.now() - 60_000).toISOString()
  const test = async () => await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/test`, headers: dev.auth })
  const replay = async () => await app.inject({ method: 'POST', url: `${base}/webhooks/${webhook.id}/replay?dryRun=true`, headers: dev.auth, payload: { since } })

  for (const [name, call] of [['tests', test], ['replays', replay]] as const) {
    for (let i = 0; i < CONSOLE_WEBHOOK_SENDS_PER_MINUTE; i++) {
      t.equal((await call()).statusCode, 200, `${name}: call ${i + 1} of ${CONSOLE_WEBHOOK_SENDS_PER_MINUTE} goes through`)
    }
    const sentBefore = target.received.length
    const refused = await call()
    t.equal(refused.statusCode, 429, `${name}: one more is refused`)
    t.match(refused.json(), { statusCode: 429, error: 'Too Many Requests', message: `Too many webhook ${name}: 10 per minute per developer. Retry in` })
    t.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After says when')
    t.equal(target.received.length, sentBefore, 'a refused call reaches no app server')
  }

  // the budget is the developer's: another developer is not held up by this one
  const other = await installApp(app)
  const otherHook = await registerWebhook(app, other, target.url)
  const theirs = await app.inject({ method: 'POST', url: `/developer/apps/${other.appId}/webhooks/${otherHook.id}/test`, headers: other.developer.auth })
  t.equal(theirs.statusCode, 200)
  // the rest of the console stays open
  t.equal((await app.inject({ url: `${base}/deliveries`, headers: dev.auth })).statusCode, 200)
})
