import { createHmac } from 'node:crypto'
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import { businessMembers, staffInvitations, users } from '../../server/db/schema/index.ts'
import type { Db, Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { sha256 } from '../../server/crypto.ts'
import { recordActivity } from '../../server/activity.ts'
import type { Clock } from '../../server/clock.ts'
import { PERMISSIONS, type BusinessRole, type Permission } from '../../sdk/src/contract/staff.ts'
import type { CommerceService } from '../commerce/service.ts'
import type { MemberAccessCache } from './member-access.ts'
import type { Mailer } from './mail.ts'
import { conflict, forbidden, httpError, notFound } from './errors.ts'

/** An invitation link works this long (DESIGN §24). */
export const INVITATION_TTL_MS = 7 * 86_400_000

/** What the staff functions run against. */
export interface StaffContext {
  executor: Db
  clock: Clock
  commerce: Pick<CommerceService, 'in' | 'findBusiness'>
  members: MemberAccessCache
  mailer: Mailer | null
  /** The admin's URL, read when a link is made (a listener on port 0 knows its port only once it listens): `{adminUrl}/invite/<token>`. */
  adminUrl: () => string
  /** The server's key: an invitation's token is the HMAC of its id. */
  secret: string
}

/** Who acts on the staff screen: the business, the user, and their place in it. */
export interface StaffActor { businessId: string, userId: string, businessRole: BusinessRole, permissions: readonly Permission[] }

/** A user's place in one business: what a session on it carries. */
export interface Place { businessId: string, businessRole: BusinessRole, memberId?: string, permissions: Permission[] }

const invitationInvalid = () => httpError(410, 'invitation_invalid', 'This invitation link was used, withdrawn or has expired: ask the business for a new one')

/** The token of an invitation: its id and a MAC of it, so the link can be shown again without storing it. */
function tokenOf (secret: string, id: string): string {
  return `${id}.${createHmac('sha256', secret).update(`staff-invitation:${id}`).digest('base64url')}`
}

const sorted = (permissions: readonly Permission[]): Permission[] => PERMISSIONS.filter((permission) => permissions.includes(permission))

type InvitationRow = typeof staffInvitations.$inferSelect

/** Invitations of a business still usable: neither accepted nor withdrawn, and not expired. */
const pendingIn = (businessId: string, now: Date) =>
  and(eq(staffInvitations.businessId, businessId), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.withdrawnAt),
    gt(staffInvitations.expiresAt, now))

function publicInvitation (context: StaffContext, row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    permissions: sorted(row.permissions),
    expiresAt: row.expiresAt.toISOString(),
    link: `${context.adminUrl().replace(/\/$/, '')}/invite/${tokenOf(context.secret, row.id)}`
  }
}

/** Staff changes are part of the business's settings in its activity log (DESIGN §24). */
const settingsOf = (businessId: string) => ({ type: 'settings' as const, id: businessId })

/** Members may grant only what they have, and never change themselves; the owner may do anything. */
function mayGrant (actor: StaffActor, permissions: readonly Permission[]): void {
  if (actor.businessRole === 'OWNER') return
  const beyond = permissions.filter((permission) => !actor.permissions.includes(permission))
  if (beyond.length > 0) throw forbidden('permission_escalation', `You cannot grant permissions you do not have: ${beyond.join(', ')}`)
}

/** The owner first, then the members by joining date, and the invitations still pending. */
export async function listStaff (context: StaffContext, businessId: string) {
  const business = await context.commerce.findBusiness(businessId)
  if (business === null) throw notFound('business_not_found', 'Business')
  const [owner] = await context.executor.select({ id: users.id, email: users.email, name: users.name }).from(users)
    .where(eq(users.id, business.ownerId)).limit(1)
  const rows = await context.executor.select({ member: businessMembers, email: users.email, name: users.name }).from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .where(eq(businessMembers.businessId, businessId)).orderBy(asc(businessMembers.createdAt), asc(businessMembers.id))
  const invitations = await context.executor.select().from(staffInvitations)
    .where(pendingIn(businessId, context.clock.now()))
    .orderBy(asc(staffInvitations.createdAt), asc(staffInvitations.id))
  return {
    members: [
      ...(owner === undefined ? [] : [{ memberId: null, userId: owner.id, email: owner.email, name: owner.name, role: 'OWNER' as const, permissions: [...PERMISSIONS] }]),
      ...rows.map(({ member, email, name }) => ({
        memberId: member.id, userId: member.userId, email, name, role: 'STAFF' as const, permissions: sorted(member.permissions)
      }))
    ],
    invitations: invitations.map((row) => publicInvitation(context, row))
  }
}

/**
 * Invites `email` with `permissions`: one pending invitation per email, none for someone already in
 * the business. The link is mailed when SMTP is set (after the commit; a failed send leaves the link to show).
 */
export async function invite (context: StaffContext, actor: StaffActor, input: { email: string, permissions: Permission[] },
  log: { warn: (object: object, message: string) => void }) {
  mayGrant(actor, input.permissions)
  const email = input.email.trim().toLowerCase()
  const row = await context.executor.transaction(async (tx) => {
    // one invitation at a time per business and email: the lock orders two owners inviting at once
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`staff-invite:${actor.businessId}:${email}`}))`)
    const business = await context.commerce.in(tx).findBusiness(actor.businessId)
    const [invitee] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1)
    if (invitee !== undefined) {
      if (business?.ownerId === invitee.id) throw conflict('already_member', 'That person owns the business')
      const [member] = await tx.select({ id: businessMembers.id }).from(businessMembers)
        .where(and(eq(businessMembers.businessId, actor.businessId), eq(businessMembers.userId, invitee.id))).limit(1)
      if (member !== undefined) throw conflict('already_member', 'That person is already a staff member of the business')
    }
    const [pending] = await tx.select({ id: staffInvitations.id }).from(staffInvitations)
      .where(and(pendingIn(actor.businessId, context.clock.now()), eq(staffInvitations.email, email))).limit(1)
    if (pending !== undefined) throw conflict('invitation_pending', 'That email already has a pending invitation: withdraw it first, or send its link again')
    const id = newId('inv')
    const [inserted] = await tx.insert(staffInvitations).values({
      id, businessId: actor.businessId, email, permissions: sorted(input.permissions), tokenHash: sha256(tokenOf(context.secret, id)),
      invitedBy: actor.userId, expiresAt: new Date(context.clock.nowMs() + INVITATION_TTL_MS)
    }).returning()
    await recordActivity(tx, { businessId: actor.businessId, action: 'staff.invited', resource: settingsOf(actor.businessId), changes: { email, permissions: inserted.permissions } })
    return { row: inserted, businessName: business?.name ?? '' }
  })
  const invitation = publicInvitation(context, row.row)
  let emailed = false
  if (context.mailer !== null) {
    try {
      await context.mailer.send({
        to: email,
        subject: `Join ${row.businessName} on App Platform`,
        text: `You are invited to join ${row.businessName} as a staff member, with these permissions: ${invitation.permissions.join(', ') || 'none'}.\n\n` +
          `Open this link to join (it works once, until ${invitation.expiresAt}):\n${invitation.link}\n`
      })
      emailed = true
    } catch (error) {
      log.warn({ err: error, invitationId: row.row.id }, 'staff invitation not mailed: the owner has the link')
    }
  }
  return { invitation, emailed }
}

export async function withdrawInvitation (context: StaffContext, businessId: string, id: string): Promise<void> {
  const withdrawn = await context.executor.update(staffInvitations).set({ withdrawnAt: context.clock.now() })
    .where(and(eq(staffInvitations.id, id), eq(staffInvitations.businessId, businessId), isNull(staffInvitations.acceptedAt),
      isNull(staffInvitations.withdrawnAt)))
    .returning({ id: staffInvitations.id })
  if (withdrawn.length === 0) throw notFound('invitation_not_found', 'Invitation')
}

async function emailOf (executor: Executor, userId: string): Promise<string> {
  const [user] = await executor.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
  return user?.email ?? ''
}

async function memberOf (executor: Executor, businessId: string, memberId: string) {
  const [member] = await executor.select().from(businessMembers)
    .where(and(eq(businessMembers.id, memberId), eq(businessMembers.businessId, businessId))).limit(1)
  if (member === undefined) throw notFound('member_not_found', 'Staff member')
  return member
}

/** Sets a member's permissions; they apply to the member's next request, in every process. */
export async function updateMember (context: StaffContext, actor: StaffActor, memberId: string, permissions: Permission[]) {
  const member = await context.executor.transaction(async (tx) => {
    const found = await memberOf(tx, actor.businessId, memberId)
    if (found.userId === actor.userId) throw forbidden('own_permissions', 'You cannot change your own permissions: the owner or another member with settings can')
    // a member may add or take away only what they have themselves
    mayGrant(actor, [...permissions, ...found.permissions].filter((permission) => permissions.includes(permission) !== found.permissions.includes(permission)))
    const [updated] = await tx.update(businessMembers).set({ permissions: sorted(permissions) }).where(eq(businessMembers.id, memberId)).returning()
    await context.members.announce(tx, memberId)
    await recordActivity(tx, {
      businessId: actor.businessId, action: 'staff.permissions_changed', resource: settingsOf(actor.businessId),
      changes: { email: await emailOf(tx, found.userId), permissions: { from: sorted(found.permissions), to: updated.permissions } }
    })
    return updated
  })
  context.members.changed(memberId)
  const [user] = await context.executor.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, member.userId)).limit(1)
  return { memberId: member.id, userId: member.userId, email: user?.email ?? '', name: user?.name ?? '', role: 'STAFF' as const, permissions: sorted(member.permissions) }
}

/** Removes a member: every session of theirs on the business is refused from its next request, in every process. */
export async function removeMember (context: StaffContext, actor: StaffActor, memberId: string): Promise<void> {
  await context.executor.transaction(async (tx) => {
    const found = await memberOf(tx, actor.businessId, memberId)
    if (found.userId === actor.userId) throw forbidden('own_permissions', 'You cannot remove yourself: the owner or another member with settings can')
    mayGrant(actor, found.permissions)
    await tx.delete(businessMembers).where(eq(businessMembers.id, memberId))
    await context.members.announce(tx, memberId)
    await recordActivity(tx, { businessId: actor.businessId, action: 'staff.removed', resource: settingsOf(actor.businessId), changes: { email: await emailOf(tx, found.userId) } })
  })
  context.members.changed(memberId)
}

async function pendingByToken (executor: Executor, token: string, now: Date, lock: boolean) {
  const query = executor.select().from(staffInvitations).where(eq(staffInvitations.tokenHash, sha256(token))).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined || row.acceptedAt !== null || row.withdrawnAt !== null || row.expiresAt <= now) throw invitationInvalid()
  return row
}

/** What the invitation screen shows before anyone signs in. */
export async function invitationInfo (context: StaffContext, token: string) {
  const row = await pendingByToken(context.executor, token, context.clock.now(), false)
  const business = await context.commerce.findBusiness(row.businessId)
  return { businessName: business?.name ?? '', email: row.email, permissions: sorted(row.permissions), expiresAt: row.expiresAt.toISOString() }
}

/**
 * `user` joins the invitation's business as STAFF, in the caller's transaction (sign-up passes its
 * own): the invitation is used up, and the account's email must be the invited one.
 */
export async function acceptInvitation (context: StaffContext, executor: Executor, token: string, user: { id: string, email: string }): Promise<Place> {
  const row = await pendingByToken(executor, token, context.clock.now(), true)
  if (row.email !== user.email.toLowerCase()) throw forbidden('invitation_email_mismatch', `This invitation is for ${row.email}: sign in with that account`)
  const business = await context.commerce.in(executor).findBusiness(row.businessId)
  if (business === null) throw invitationInvalid()
  if (business.ownerId === user.id) throw conflict('already_member', 'You own this business')
  const memberId = newId('mem')
  const [inserted] = await executor.insert(businessMembers)
    .values({ id: memberId, businessId: row.businessId, userId: user.id, permissions: row.permissions })
    .onConflictDoNothing().returning({ id: businessMembers.id })
  if (inserted === undefined) throw conflict('already_member', 'You are already a staff member of this business')
  await executor.update(staffInvitations).set({ acceptedAt: context.clock.now(), acceptedBy: user.id }).where(eq(staffInvitations.id, row.id))
  // the new member acts, whether they signed up a moment ago or were signed in to another business
  await recordActivity(executor, {
    businessId: row.businessId, action: 'staff.joined', resource: settingsOf(row.businessId), changes: { email: row.email, permissions: sorted(row.permissions) }, actor: { type: 'staff', id: user.id }
  })
  return { businessId: row.businessId, businessRole: 'STAFF', memberId, permissions: sorted(row.permissions) }
}

/** The businesses a user belongs to: the one they own (their own business or sandbox), then those they joined. */
export async function placesOf (context: StaffContext, user: { id: string, businessId: string | null }): Promise<Place[]> {
  const joined = await context.executor.select().from(businessMembers)
    .where(eq(businessMembers.userId, user.id)).orderBy(asc(businessMembers.createdAt), asc(businessMembers.id))
  return [
    ...(user.businessId === null ? [] : [{ businessId: user.businessId, businessRole: 'OWNER' as const, permissions: [...PERMISSIONS] }]),
    ...joined.map((member) => ({ businessId: member.businessId, businessRole: 'STAFF' as const, memberId: member.id, permissions: sorted(member.permissions) }))
  ]
}

/** The place a session starts on: the named business (null when the user has no place there), else their first. */
export async function placeOf (context: StaffContext, user: { id: string, businessId: string | null }, businessId?: string): Promise<Place | null> {
  const places = await placesOf(context, user)
  if (businessId === undefined) return places[0] ?? null
  return places.find((place) => place.businessId === businessId) ?? null
}

/** The businesses of placesOf with their names, for the admin's business switcher. */
export async function businessesOf (context: StaffContext, user: { id: string, businessId: string | null }) {
  const places = await placesOf(context, user)
  const found = await Promise.all(places.map(async (place) => ({ place, business: await context.commerce.findBusiness(place.businessId) })))
  return found.filter(({ business }) => business !== null).map(({ place, business }) => ({
    id: place.businessId,
    name: business?.name ?? '',
    slug: business?.slug ?? '',
    isSandbox: business?.isSandbox ?? false,
    role: place.businessRole,
    permissions: place.permissions
  }))
}

/** acceptInvitation in a transaction of its own: a signed-in user joining. */
export async function join (context: StaffContext, token: string, user: { id: string, email: string }): Promise<Place> {
  return await context.executor.transaction(async (tx) => await acceptInvitation(context, tx, token, user))
}
