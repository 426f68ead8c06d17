import type { App } from '../../../server/app.ts'
import { uniqueEmail, type Session } from '../../helper.ts'

export const decodeClaims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())

/** The token at the end of an invitation link. */
export const tokenOfLink = (link: string): string => link.slice(link.lastIndexOf('/') + 1)

/** The owner invites a new email with `permissions`; the invitee signs up with the link and joins: their session. */
export async function addMember (app: App, owner: Session, permissions: string[]): Promise<Session & { memberId: string }> {
  const email = uniqueEmail('staff')
  const invited = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email, permissions } })
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.statusCode} ${invited.body}`)
  const joined = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { email, password: 'correct-horse', name: 'Sam Staff', role: 'MERCHANT', invitationToken: tokenOfLink(invited.json().invitation.link) }
  })
  if (joined.statusCode !== 201) throw new Error(`join failed: ${joined.statusCode} ${joined.body}`)
  const body = joined.json()
  return { token: body.token, userId: body.user.id, businessId: body.businessId, email, auth: { authorization: `Bearer ${body.token}` }, memberId: decodeClaims(body.token).memberId }
}
