import type { FastifyReply, FastifyRequest } from 'fastify'
import { SessionTokenError, verifySessionToken, type SessionTokenClaims } from '@app-platform/sdk'
import { origin, type Context } from './context.ts'
import type { Installation } from './store.ts'

/*
 * The admin page's calls to our backend carry the admin panel's session token (Authorization: Bearer):
 * verified with the installation's webhook secret before anything is read or charged for that business.
 */

export interface VerifiedSession { installation: Installation, claims: SessionTokenClaims }

function unauthorized (reply: FastifyReply, message: string) {
  return reply.code(401).header('www-authenticate', 'Bearer').send({ statusCode: 401, error: 'Unauthorized', message })
}

/** The installation a token claims to be for, read before its signature is checked (the secret depends on it). */
function claimedBusiness (token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { businessId?: unknown }
    return typeof claims.businessId === 'string' ? claims.businessId : null
  } catch {
    return null
  }
}

/** The verified installation and claims, or null once a 401 has been sent (the route then returns `reply`). */
export function verifiedSession (context: Context, request: FastifyRequest, reply: FastifyReply): VerifiedSession | null {
  const header = request.headers.authorization ?? ''
  const token = header.startsWith('Bearer ') ? header.slice(7) : ''
  const credentials = context.store.credentials()
  const installation: Installation | null = context.store.installation(claimedBusiness(token) ?? '')
  if (token === '' || credentials === null || installation === null) {
    unauthorized(reply, 'A session token from the admin panel is required')
    return null
  }
  let claims: SessionTokenClaims
  try {
    claims = verifySessionToken(token, { secret: installation.webhookSecret, clientId: credentials.clientId, issuer: origin(context.urls.adminUrl) })
  } catch (error) {
    if (!(error instanceof SessionTokenError)) throw error
    unauthorized(reply, error.message)
    return null
  }
  if (claims.installationId !== installation.installationId) {
    unauthorized(reply, 'Session token is for an earlier installation')
    return null
  }
  return { installation, claims }
}
