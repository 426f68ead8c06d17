import t from 'tap'
import { build, registerUser, portsOf } from '../../helper.ts'

t.test('installations.in(tx): writes that span capabilities run only in the caller\'s transaction, by type', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const created = await app.inject({
    method: 'POST', url: '/developer/apps', headers: developer.auth,
    payload: { name: 'Txn', slug: 'txn-app', description: 'x', category: 'other', scopes: ['read_products'], redirectUrl: 'https://app.example.com/cb' }
  })
  const appRow = await portsOf(app).apps.ownedApp(developer.userId, created.json().app.id)
  const input = { app: appRow, businessId: developer.businessId, scopes: ['read_products'], userId: developer.userId, isTestInstall: true }

  const { installations } = portsOf(app)
  // the root service has no transaction-only operation: calling one does not compile (npx tsc checks these lines)
  // @ts-expect-error install runs only in the caller's transaction: installations.in(tx).install
  t.equal(installations.install, undefined, 'no install outside a transaction')
  // @ts-expect-error revokeToken runs only in the caller's transaction
  t.equal(installations.revokeToken, undefined)
  // @ts-expect-error uninstall runs only in the caller's transaction
  t.equal(installations.uninstall, undefined)
  // @ts-expect-error in() takes a transaction, not the database
  t.type(installations.in(app.db).getForBusiness, 'function')

  const issued = await app.db.transaction(async (tx) => await portsOf(app).installations.in(tx).install(input))
  t.match(issued.accessToken, /^fbat_/)
  t.equal((await portsOf(app).installations.activeFor(appRow.id, developer.businessId))?.id, issued.installation.id, 'committed with the caller\'s transaction')
  t.equal((await portsOf(app).installations.getForBusiness(developer.businessId, issued.installation.id)).id, issued.installation.id, 'the root reads it')

  const rolledBack = await app.db.transaction(async (tx) => {
    await portsOf(app).installations.in(tx).uninstall(issued.installation)
    tx.rollback()
  }).catch((error: unknown) => error)
  t.ok(rolledBack instanceof Error, 'the caller rolled back')
  t.equal((await portsOf(app).installations.activeFor(appRow.id, developer.businessId))?.id, issued.installation.id, 'and the uninstall went with it')
})
