import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { errorResponses } from '../../server/schemas.ts'
import { InvitationParams, InviteBodySchema, InvitedSchema, MemberBodySchema, MemberParams, StaffMemberSchema, StaffSchema } from './schemas.ts'
import type { Guards } from './guards.ts'
import type { StaffService } from './service.ts'
import type { StaffActor } from './staff.ts'

const tags = ['merchant']
const security = [{ developerJwt: [] }]
/** Managing staff is part of the business's settings (DESIGN §24). */
const config = { permission: 'settings' as const }

/** Who acts, from the session the guards checked (they put the member's current permissions on it). */
function actorOf (request: FastifyRequest): StaffActor {
  const { businessId, sub, businessRole, permissions } = request.user
  return { businessId: businessId as string, userId: sub, businessRole: businessRole ?? 'OWNER', permissions: permissions ?? [] }
}

/** /merchant/staff: the business's owner and members, and the invitations still pending. */
const staffRoutes: FastifyPluginAsyncTypebox<{ staff: StaffService, guards: Pick<Guards, 'requireMerchant'> }> = async (fastify, { staff, guards }) => {
  fastify.addHook('onRequest', guards.requireMerchant)

  fastify.get('/staff', {
    config,
    schema: {
      tags, security, operationId: 'listStaff', summary: 'The owner, the staff members with their permissions, and the pending invitations',
      response: { 200: StaffSchema, ...errorResponses(401, 403) }
    }
  }, async (request) => await staff.listStaff(actorOf(request).businessId))

  fastify.post('/staff', {
    config,
    schema: {
      tags, security, operationId: 'inviteStaff', summary: 'Invite someone by email, with permissions',
      description: 'The answer carries the single-use link (`{admin_url}/invite/<token>`, 7 days); it is also mailed when SMTP_URL is set (`emailed`). ' +
        'A member grants only permissions they have (403 `permission_escalation`); 409 `already_member` or `invitation_pending` for that email.',
      body: InviteBodySchema,
      response: { 201: InvitedSchema, ...errorResponses(400, 401, 403, 409) }
    }
  }, async (request, reply) => {
    const invited = await staff.invite(actorOf(request), request.body, request.log)
    request.log.info({ invitationId: invited.invitation.id, emailed: invited.emailed }, 'staff invited')
    return reply.code(201).send(invited)
  })

  fastify.patch('/staff/:memberId', {
    config,
    schema: {
      tags, security, operationId: 'updateStaffMember', summary: "Set a member's permissions (from their next request on)",
      description: 'Nobody changes their own permissions (403 `own_permissions`); a member grants or takes away only permissions they have (403 `permission_escalation`).',
      params: MemberParams, body: MemberBodySchema,
      response: { 200: StaffMemberSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await staff.updateMember(actorOf(request), request.params.memberId, request.body.permissions))

  fastify.delete('/staff/:memberId', {
    config,
    schema: {
      tags, security, operationId: 'removeStaffMember', summary: 'Remove a member: their sessions on the business stop at once',
      params: MemberParams,
      response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404) }
    }
  }, async (request, reply) => {
    await staff.removeMember(actorOf(request), request.params.memberId)
    request.log.info({ memberId: request.params.memberId }, 'staff member removed')
    return await reply.code(204).send(null)
  })

  fastify.delete('/staff/invitations/:id', {
    config,
    schema: {
      tags, security, operationId: 'withdrawStaffInvitation', summary: 'Withdraw a pending invitation: its link stops working',
      params: InvitationParams,
      response: { 204: Type.Null({ description: 'Withdrawn' }), ...errorResponses(401, 403, 404) }
    }
  }, async (request, reply) => {
    await staff.withdrawInvitation(actorOf(request).businessId, request.params.id)
    return await reply.code(204).send(null)
  })
}

export default staffRoutes
