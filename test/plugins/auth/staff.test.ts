import t from 'tap'
import { sql } from 'drizzle-orm'
import { build, createApp, registerUser, REVIEWER_ENV, uniqueEmail } from '../../helper.ts'
import { rows } from '../../../server/db/rows.ts'
import { addMember, decodeClaims, tokenOfLink } from './staff-helpers.ts'

const PASSWORD = 'correct-horse'

t.test('the owner invites; the invitee signs up with the link and joins as STAFF with those permissions', async (t) => {
  const app = await build(t)
  const owner = await registerUser(app, 'MERCHANT')
  const email = uniqueEmail('invitee')
  const invited = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email: email.toUpperCase(), permissions: ['products', 'orders'] } })
  t.equal(invited.statusCode, 201)
  const { invitation, emailed } = invited.json()
  t.equal(emailed, false, 'no SMTP_URL: the owner gives the link')
  t.equal(invitation.email, email, 'kept in lower case')
  t.same(invitation.permissions, ['orders', 'products'], 'in the canonical order')
  t.match(invitation.link, new RegExp(`^${app.origins.adminUrl.replace(/\/$/, '')}/invite/inv_[^.]+\\.[A-Za-z0-9_-]+$`))
  t.ok(Math.abs(Date.parse(invitation.expiresAt) - Date.now() - 7 * 86_400_000) < 60_000, 'valid 7 days')
  const [stored] = await rows<{ token_hash: string }>(app.db, sql`select token_hash from staff_invitations where id = ${invitation.id}`)
  t.not(stored.token_hash, tokenOfLink(invitation.link), 'only a hash of the token is stored')

  const listed = (await app.inject({ url: '/merchant/staff', headers: owner.auth })).json()
  t.match(listed.members, [{ memberId: null, userId: owner.userId, role: 'OWNER', permissions: ['orders', 'products', 'reviews', 'pages', 'settings', 'apps', 'billing'] }])
  t.equal(listed.members.length, 1)
  t.same(listed.invitations, [invitation], 'the pending invitation with its link, shown again')

  const token = tokenOfLink(invitation.link)
  const info = await app.inject({ url: `/auth/invitations/${token}` })
  t.equal(info.statusCode, 200)
  t.match(info.json(), { email, permissions: ['orders', 'products'], expiresAt: invitation.expiresAt })

  const joined = await app.inject({ method: 'POST', url: '/auth/register', payload: { email, password: PASSWORD, name: 'Pat Packer', role: 'MERCHANT', invitationToken: token } })
  t.equal(joined.statusCode, 201, joined.body)
  const session = joined.json()
  t.equal(session.businessId, owner.businessId, 'the session is on the inviting business')
  t.equal(session.user.businessId, null, 'no business of their own')
  t.match(session.business, { id: owner.businessId, role: 'STAFF', permissions: ['orders', 'products'] })
  const claims = decodeClaims(session.token)
  t.match(claims, { sub: session.user.id, businessId: owner.businessId, businessRole: 'STAFF', permissions: ['orders', 'products'] })
  t.match(claims.memberId, /^mem_/)
  const auth = { authorization: `Bearer ${session.token}` }
  t.match((await app.inject({ url: '/auth/me', headers: auth })).json().business, { id: owner.businessId, role: 'STAFF', permissions: ['orders', 'products'] })
  t.equal((await app.inject({ url: '/merchant/orders', headers: auth })).statusCode, 200)
  const refused = await app.inject({ url: '/merchant/reviews', headers: auth })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().code, 'permission_missing')

  // the link is used up; the owner's list shows the member and no invitation
  const again = await app.inject({ method: 'POST', url: '/auth/register', payload: { email: uniqueEmail('late'), password: PASSWORD, name: 'Late', role: 'MERCHANT', invitationToken: token } })
  t.equal(again.statusCode, 410)
  t.equal(again.json().code, 'invitation_invalid')
  t.equal((await app.inject({ url: `/auth/invitations/${token}` })).statusCode, 410)
  const after = (await app.inject({ url: '/merchant/staff', headers: owner.auth })).json()
  t.match(after.members[1], { userId: session.user.id, email, name: 'Pat Packer', role: 'STAFF', permissions: ['orders', 'products'] })
  t.same(after.invitations, [])

  // the new member signs in later: the session starts on the business they joined
  const login = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } })).json()
  t.match(login.business, { id: owner.businessId, role: 'STAFF' })
})

t.test('bad invitations: nothing is written', async (t) => {
  const app = await build(t)
  const owner = await registerUser(app, 'MERCHANT')
  const count = async () => Number((await rows<{ n: string }>(app.db, sql`select count(*) as n from staff_invitations`))[0].n)
  for (const payload of [{ email: uniqueEmail(), permissions: ['orders', 'shipping'] }, { email: 'not-an-email', permissions: [] }, { email: uniqueEmail(), permissions: ['orders', 'orders'] }, { email: uniqueEmail() }]) {
    const refused = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload })
    t.equal(refused.statusCode, 400, JSON.stringify(payload))
    t.equal(refused.json().code, 'validation_failed')
  }
  const own = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email: owner.email, permissions: [] } })
  t.equal(own.statusCode, 409)
  t.equal(own.json().code, 'already_member')
  const email = uniqueEmail()
  t.equal((await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email, permissions: ['orders'] } })).statusCode, 201)
  const twice = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email, permissions: ['orders'] } })
  t.equal(twice.statusCode, 409)
  t.equal(twice.json().code, 'invitation_pending')
  t.equal(await count(), 1)
  const member = await addMember(app, owner, ['orders'])
  const member2 = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email: member.email, permissions: [] } })
  t.equal(member2.json().code, 'already_member')
  t.equal((await app.inject({ url: '/auth/invitations/inv_nothing.abc' })).statusCode, 410, 'an unknown token')
})

t.test('expired, withdrawn and mismatched invitations; accepting as a signed-in user; switching businesses', async (t) => {
  const app = await build(t)
  const owner = await registerUser(app, 'MERCHANT')
  const elsewhere = await registerUser(app, 'MERCHANT')
  const invite = async (email: string, permissions = ['orders']) =>
    (await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email, permissions } })).json().invitation

  const expired = await invite(elsewhere.email)
  await app.db.execute(sql`update staff_invitations set expires_at = now() - interval '1 second' where id = ${expired.id}`)
  const late = await app.inject({ method: 'POST', url: `/auth/invitations/${tokenOfLink(expired.link)}/accept`, headers: elsewhere.auth })
  t.equal(late.statusCode, 410)
  t.equal(late.json().code, 'invitation_invalid')
  t.same((await app.inject({ url: '/merchant/staff', headers: owner.auth })).json().invitations, [], 'an expired invitation is not pending')

  const withdrawn = await invite(elsewhere.email)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/staff/invitations/${withdrawn.id}`, headers: elsewhere.auth })).statusCode, 404, "another business's invitation is not there")
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/staff/invitations/${withdrawn.id}`, headers: owner.auth })).statusCode, 204)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/staff/invitations/${withdrawn.id}`, headers: owner.auth })).statusCode, 404, 'once')
  t.equal((await app.inject({ method: 'POST', url: `/auth/invitations/${tokenOfLink(withdrawn.link)}/accept`, headers: elsewhere.auth })).statusCode, 410)

  const forOther = await invite(uniqueEmail('other'))
  const mismatch = await app.inject({ method: 'POST', url: `/auth/invitations/${tokenOfLink(forOther.link)}/accept`, headers: elsewhere.auth })
  t.equal(mismatch.statusCode, 403)
  t.equal(mismatch.json().code, 'invitation_email_mismatch')
  const tampered = `${tokenOfLink(forOther.link).slice(0, -2)}xx`
  t.equal((await app.inject({ url: `/auth/invitations/${tampered}` })).statusCode, 410, 'a tampered token')

  // a merchant with a business of their own joins another one, and switches between them
  const invitation = await invite(elsewhere.email, ['pages'])
  const accepted = await app.inject({ method: 'POST', url: `/auth/invitations/${tokenOfLink(invitation.link)}/accept`, headers: elsewhere.auth })
  t.equal(accepted.statusCode, 200, accepted.body)
  t.match(accepted.json().business, { id: owner.businessId, role: 'STAFF', permissions: ['pages'] })
  t.equal((await app.inject({ method: 'POST', url: `/auth/invitations/${tokenOfLink(invitation.link)}/accept`, headers: elsewhere.auth })).statusCode, 410, 'single use')
  const listed = (await app.inject({ url: '/auth/businesses', headers: elsewhere.auth })).json().data
  t.match(listed, [{ id: elsewhere.businessId, role: 'OWNER' }, { id: owner.businessId, role: 'STAFF', permissions: ['pages'] }])
  const switched = await app.inject({ method: 'POST', url: '/auth/switch-business', headers: elsewhere.auth, payload: { businessId: owner.businessId } })
  t.equal(switched.statusCode, 200)
  const staffAuth = { authorization: `Bearer ${switched.json().token as string}` }
  t.equal((await app.inject({ url: '/merchant/pages', headers: staffAuth })).statusCode, 200)
  t.equal((await app.inject({ url: '/merchant/products', headers: staffAuth })).json().code, 'permission_missing')
  const back = await app.inject({ method: 'POST', url: '/auth/switch-business', headers: staffAuth, payload: { businessId: elsewhere.businessId } })
  t.match(back.json().business, { id: elsewhere.businessId, role: 'OWNER' })
  const nowhere = await app.inject({ method: 'POST', url: '/auth/switch-business', headers: elsewhere.auth, payload: { businessId: (await registerUser(app, 'MERCHANT')).businessId } })
  t.equal(nowhere.statusCode, 404)
  t.equal(nowhere.json().code, 'business_not_found')
})

t.test('members: editing and removing, the limits of a member with settings, and other businesses', async (t) => {
  const app = await build(t)
  const owner = await registerUser(app, 'MERCHANT')
  const manager = await addMember(app, owner, ['orders', 'settings'])
  const packer = await addMember(app, owner, ['orders'])

  const self = await app.inject({ method: 'PATCH', url: `/merchant/staff/${manager.memberId}`, headers: manager.auth, payload: { permissions: ['orders', 'settings', 'billing'] } })
  t.equal(self.statusCode, 403)
  t.equal(self.json().code, 'own_permissions')
  const escalate = await app.inject({ method: 'PATCH', url: `/merchant/staff/${packer.memberId}`, headers: manager.auth, payload: { permissions: ['orders', 'billing'] } })
  t.equal(escalate.statusCode, 403)
  t.equal(escalate.json().code, 'permission_escalation')
  const inviteBeyond = await app.inject({ method: 'POST', url: '/merchant/staff', headers: manager.auth, payload: { email: uniqueEmail(), permissions: ['apps'] } })
  t.equal(inviteBeyond.json().code, 'permission_escalation')
  const permissionsOf = async (memberId: string) =>
    (await rows<{ permissions: string[] }>(app.db, sql`select permissions from business_members where id = ${memberId}`))[0].permissions
  t.same(await permissionsOf(manager.memberId), ['orders', 'settings'], 'nothing written')
  t.same(await permissionsOf(packer.memberId), ['orders'])
  t.equal((await app.inject({ url: '/merchant/staff', headers: packer.auth })).json().code, 'permission_missing', 'a member without settings cannot see the staff')

  // the owner's edit applies to the member's next request
  const edited = await app.inject({ method: 'PATCH', url: `/merchant/staff/${packer.memberId}`, headers: owner.auth, payload: { permissions: ['products'] } })
  t.equal(edited.statusCode, 200)
  t.match(edited.json(), { memberId: packer.memberId, role: 'STAFF', permissions: ['products'] })
  t.equal((await app.inject({ url: '/merchant/orders', headers: packer.auth })).json().code, 'permission_missing', 'orders taken away at once')
  t.equal((await app.inject({ url: '/merchant/products', headers: packer.auth })).statusCode, 200, 'products given at once')
  t.match((await app.inject({ url: '/auth/me', headers: packer.auth })).json().business, { permissions: ['products'] })

  // another business sees none of it
  const stranger = await registerUser(app, 'MERCHANT')
  t.equal((await app.inject({ method: 'PATCH', url: `/merchant/staff/${packer.memberId}`, headers: stranger.auth, payload: { permissions: [] } })).statusCode, 404)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/staff/${packer.memberId}`, headers: stranger.auth })).json().code, 'member_not_found')
  t.equal((await app.inject({ url: '/merchant/staff', headers: stranger.auth })).json().members.length, 1)

  // removal ends the member's live session at once
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/staff/${packer.memberId}`, headers: owner.auth })).statusCode, 204)
  const cut = await app.inject({ url: '/merchant/products', headers: packer.auth })
  t.equal(cut.statusCode, 401)
  t.equal(cut.json().code, 'session_revoked')
  t.equal((await app.inject({ method: 'POST', url: '/auth/switch-business', headers: packer.auth, payload: { businessId: owner.businessId } })).statusCode, 401)
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: packer.email, password: PASSWORD } })
  t.equal(login.json().business, null, 'signed in again, they belong to no business')
  t.equal((await app.inject({ url: '/merchant/business', headers: { authorization: `Bearer ${login.json().token as string}` } })).statusCode, 403)
  t.equal((await app.inject({ method: 'DELETE', url: `/merchant/staff/${manager.memberId}`, headers: manager.auth })).json().code, 'own_permissions', 'nobody removes themselves')

  // the activity log says who changed the staff (the refused attempts wrote nothing)
  const log = (await app.inject({ url: '/merchant/activity?resource=settings', headers: owner.auth })).json().data as Array<Record<string, any>>
  t.same(log.map((entry) => entry.action), ['staff.removed', 'staff.permissions_changed', 'staff.joined', 'staff.invited', 'staff.joined', 'staff.invited'])
  t.match(log[0], { actor: { type: 'staff', id: owner.userId, name: 'Test MERCHANT' }, resource: { type: 'settings', id: owner.businessId }, changes: { email: packer.email } })
  t.match(log[1].changes, { email: packer.email, permissions: { from: ['orders'], to: ['products'] } })
  t.match(log[2], { actor: { type: 'staff', id: packer.userId, name: 'Sam Staff' }, changes: { email: packer.email, permissions: ['orders'] } })
  t.match(log[3], { actor: { type: 'staff', id: owner.userId }, changes: { email: packer.email, permissions: ['orders'] } })
})

t.test('a developer working as staff of a merchant: no test install into the merchant, no developer portal until they switch back', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const owner = await registerUser(app, 'MERCHANT')
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: draft } = await createApp(app, developer)
  const invitation = (await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email: developer.email, permissions: ['apps'] } })).json().invitation
  const joined = await app.inject({ method: 'POST', url: `/auth/invitations/${tokenOfLink(invitation.link)}/accept`, headers: developer.auth })
  t.equal(joined.statusCode, 200)
  const asStaff = { authorization: `Bearer ${joined.json().token as string}` }
  const portal = await app.inject({ url: '/developer/apps', headers: asStaff })
  t.equal(portal.statusCode, 403)
  t.equal(portal.json().code, 'role_forbidden')
  const query = new URLSearchParams({ client_id: draft.clientId, redirect_uri: draft.redirectUrl, response_type: 'code' })
  const consent = await app.inject({ url: `/oauth/authorize/info?${query.toString()}`, headers: asStaff })
  t.equal(consent.statusCode, 400, 'their unpublished app is not installable on the merchant')
  t.equal(consent.json().code, 'unauthorized_client')
  t.equal((await app.inject({ url: '/developer/apps', headers: developer.auth })).statusCode, 200, 'their own session still reaches the portal')
})
