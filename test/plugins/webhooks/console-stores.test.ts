import t from 'tap'
import { build, registerUser, portsOf } from '../../helper.ts'
import { installApp, receiver } from './helpers.ts'

t.test('the console names stores and keeps registrations an uninstall switched off behind a filter (#29 item 7)', async (t) => {
  const app = await build(t)
  const target = await receiver(t)
  const first = await installApp(app, { webhookUrl: target.url, webhookEvents: ['order.created'] })
  const dev = first.developer
  const base = `/developer/apps/${first.appId}`
  const list = async (query = '') => {
    const response = await app.inject({ url: `${base}/webhooks${query}`, headers: dev.auth })
    t.equal(response.statusCode, 200, `GET webhooks${query}`)
    return response.json() as { total: number, data: Array<Record<string, any>> }
  }
  const business = (await app.inject({ url: '/merchant/business', headers: dev.auth }))
  const storeName = business.statusCode === 200 ? business.json().name : (await portsOf(app).commerce.findBusiness(first.businessId))?.name
  t.type(storeName, 'string', 'the sandbox store has a name')

  const before = await list()
  t.equal(before.total, 1)
  t.match(before.data[0], { businessId: first.businessId, storeName, installationActive: true, isActive: true }, 'each registration names its store')

  // uninstall, then install again: the old registration stays (its log), switched off
  t.equal((await app.inject({ method: 'POST', url: `${base}/test-uninstall`, headers: dev.auth })).statusCode, 200)
  const again = await app.inject({ method: 'POST', url: `${base}/test-install`, headers: dev.auth })
  t.equal(again.statusCode, 201)
  const newInstallation = again.json().installationId as string

  const all = await list()
  t.equal(all.total, 2, 'by default the API lists both, as before')
  const current = await list('?uninstalled=exclude')
  t.equal(current.total, 1, 'exclude: only the registration of the current install')
  t.match(current.data[0], { installationId: newInstallation, storeName, isActive: true })
  const old = await list('?uninstalled=only')
  t.equal(old.total, 1, 'only: the registration the uninstall switched off')
  t.match(old.data[0], { installationId: first.installationId, storeName, isActive: false, disabledReason: 'App uninstalled', installationActive: false })

  t.test('bad input and other developers', async (t) => {
    const bad = await app.inject({ url: `${base}/webhooks?uninstalled=hidden`, headers: dev.auth })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'validation_failed')
    const stranger = await registerUser(app, 'DEVELOPER')
    t.equal((await app.inject({ url: `${base}/webhooks?uninstalled=only`, headers: stranger.auth })).statusCode, 404, "another developer's app is a 404")
  })

  t.test('a registration whose store is gone says so instead of failing', async (t) => {
    const names = await portsOf(app).commerce.businessNamesOf([first.businessId, 'biz_gone', first.businessId])
    t.same([...names.entries()], [[first.businessId, storeName]], 'known ids once each; an unknown id is left out')
    t.same([...(await portsOf(app).commerce.businessNamesOf([])).entries()], [])
  })
})
