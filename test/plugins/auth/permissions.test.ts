import t from 'tap'
import { verifySessionToken } from '../../../sdk/src/index.ts'
import { PERMISSIONS } from '../../../sdk/src/contract/staff.ts'
import { declaredPermission } from '../../../plugins/auth/guards.ts'
import { build, portsOf, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { installApp } from '../storefront/fixtures.ts'
import { addMember } from './staff-helpers.ts'

/** A route's URL with every parameter filled in (an id that does not exist: the permission is checked first). */
const urlOf = (route: string) => route.replace(/:[A-Za-z]+/g, 'x_none')

t.test('every /merchant route declares its permission, and refuses a member without it (generated from the route table)', async (t) => {
  const app = await build(t)
  const owner = await registerUser(app, 'MERCHANT')
  const routes = portsOf(app).guards.merchantRoutes().filter((route) => route.method !== 'HEAD')
  t.ok(routes.length >= 50, `${routes.length} /merchant routes in the table`)
  const declared = new Set(routes.map((route) => `${route.method} ${route.url}`))
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const path = line.replace(/^[\s│├└─]+/, '').split(' (')[0]
    if (!path.startsWith('/merchant')) continue
    t.ok(routes.some((route) => route.url === path), `${path} is in the route table`)
  }

  const without = new Map<string, Awaited<ReturnType<typeof addMember>>>()
  for (const permission of PERMISSIONS) without.set(permission, await addMember(app, owner, PERMISSIONS.filter((p) => p !== permission)))
  const nothing = await addMember(app, owner, [])
  const only = new Map<string, Awaited<ReturnType<typeof addMember>>>()
  for (const permission of PERMISSIONS) only.set(permission, await addMember(app, owner, [permission]))

  const call = async (member: { auth: { authorization: string } }, route: { method: string, url: string }) =>
    await app.inject({ method: route.method as 'GET', url: urlOf(route.url), headers: member.auth, ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}) })

  for (const route of routes) {
    const name = `${route.method} ${route.url}`
    if (route.permission === null) {
      const answer = await call(nothing, route)
      t.not(answer.json().code, 'permission_missing', `${name} needs no permission`)
      continue
    }
    const refused = await call(without.get(route.permission) as { auth: { authorization: string } }, route)
    t.equal(refused.statusCode, 403, `${name}: refused without ${route.permission}`)
    t.equal(refused.json().code, 'permission_missing')
    const allowed = await call(only.get(route.permission) as { auth: { authorization: string } }, route)
    t.not(allowed.json().code, 'permission_missing', `${name}: passes with ${route.permission} alone`)
    const asOwner = await call(owner, route)
    t.not(asOwner.json().code, 'permission_missing', `${name}: the owner may`)
  }
  t.ok(declared.size > 0)
})

t.test('a /merchant route without a declared permission stops the server from starting', async (t) => {
  t.throws(() => declaredPermission({ method: 'GET', url: '/merchant/new-thing' }), /GET \/merchant\/new-thing declares no permission/)
  t.throws(() => declaredPermission({ method: 'POST', url: '/merchant', config: {} }), /declares no permission/)
  t.same(declaredPermission({ method: ['GET', 'HEAD'], url: '/merchant/x', config: { permission: 'orders' } }),
    [{ method: 'GET', url: '/merchant/x', permission: 'orders' }, { method: 'HEAD', url: '/merchant/x', permission: 'orders' }])
  t.same(declaredPermission({ method: 'GET', url: '/merchantile' }), [], 'another prefix')
  t.same(declaredPermission({ method: 'GET', url: '/developer/apps' }), [])
})

t.test("apps see who acts: the admin page's session token carries the role and permissions; installing needs apps", async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, ADMIN_URL: 'https://admin.example/' } })
  const owner = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, owner, { adminPages: [{ pageId: 'reports', title: 'Reports', renderUrl: 'https://reports.example/admin' }] })
  const { clientId, redirectUrl } = (await app.inject({ url: `/developer/apps/${shop.appId}`, headers: shop.developer.auth })).json()
  const url = `/merchant/installations/${shop.installed.installationId}/session-token`
  const tokenOf = async (auth: { authorization: string }) =>
    verifySessionToken((await app.inject({ method: 'POST', url, headers: auth })).json().sessionToken, { secret: shop.installed.webhookSecret, clientId })

  t.match(await tokenOf(owner.auth), { sub: owner.userId, role: 'OWNER', permissions: [...PERMISSIONS] })
  const staff = await addMember(app, owner, ['apps', 'orders'])
  t.match(await tokenOf(staff.auth), { sub: staff.userId, role: 'STAFF', permissions: ['orders', 'apps'], businessId: owner.businessId })

  const packer = await addMember(app, owner, ['orders'])
  t.equal((await app.inject({ method: 'POST', url, headers: packer.auth })).json().code, 'permission_missing', 'an app page needs apps')
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUrl, response_type: 'code' })
  const consent = await app.inject({ url: `/oauth/authorize/info?${query.toString()}`, headers: packer.auth })
  t.equal(consent.statusCode, 403)
  t.equal(consent.json().code, 'permission_missing', 'the consent screen refuses a member without apps')
  const approve = await app.inject({ method: 'POST', url: '/oauth/authorize', headers: packer.auth, payload: { client_id: clientId, redirect_uri: redirectUrl, response_type: 'code', decision: 'approve' } })
  t.equal(approve.json().code, 'permission_missing', 'and its approval')
  const uninstall = await app.inject({ method: 'DELETE', url: `/merchant/installations/${shop.installed.installationId}`, headers: packer.auth })
  t.equal(uninstall.json().code, 'permission_missing', 'uninstalling needs apps')
})
