import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses, Paginated } from '../../server/schemas.ts'
import { notFound } from './errors.ts'
import type { CliTokenView } from './cli-tokens.ts'
import { CliTokenParams, CliTokenSchema, CliWhoamiSchema } from './schemas.ts'
import type { Guards } from './guards.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/** /developer/cli-tokens: the developer's CLI tokens (DESIGN §19), listed and revoked in the portal; whoami and logout for the CLI. */
const cliTokenRoutes: FastifyPluginAsyncTypebox<{ guards: Pick<Guards, 'requireRole' | 'cliTokens'> }> = async (fastify, { guards }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.get('/', {
    schema: {
      tags, security, operationId: 'listCliTokens', summary: 'The live CLI tokens of the signed-in developer',
      description: 'Tokens issued by `app-platform login` (device authorization), newest first; expired and revoked ones are not listed.',
      response: { 200: Paginated(CliTokenSchema), ...errorResponses(401, 403) }
    }
  }, async (request) => {
    const data = await guards.cliTokens.list(request.user.sub)
    return { data: data.map(view), total: data.length, page: 1, limit: Math.max(data.length, 1) }
  })

  fastify.get('/current', {
    schema: {
      tags, security, operationId: 'getCliWhoami', summary: 'Who the bearer is, and the CLI token in use (`app-platform whoami`)',
      response: { 200: CliWhoamiSchema, ...errorResponses(401, 403) }
    }
  }, async (request) => {
    const { sub, email, businessId, jti, cli } = request.user
    const token = cli === true ? (await guards.cliTokens.list(sub)).find((t) => t.id === jti) ?? null : null
    return { user: { id: sub, email, role: 'DEVELOPER' as const, businessId }, token: token === null ? null : view(token) }
  })

  fastify.delete('/current', {
    schema: {
      tags, security, operationId: 'revokeCurrentCliToken', summary: 'Revoke the CLI token in use (`app-platform logout`)',
      description: '404 when the bearer is a session JWT rather than a CLI token.',
      response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(401, 403, 404) }
    }
  }, async (request, reply) => {
    if (request.user.cli !== true || !await guards.cliTokens.revoke(request.user.sub, request.user.jti)) throw notFound('cli_token_not_found', 'CLI token')
    return await reply.code(204).send(null)
  })

  fastify.delete('/:tokenId', {
    schema: {
      tags, security, operationId: 'revokeCliToken', summary: 'Revoke one of your CLI tokens',
      description: 'The token is refused at once in every process and its live streams (listen, logs) end. Another developer\'s token is 404.',
      params: CliTokenParams, response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(401, 403, 404) }
    }
  }, async (request, reply) => {
    if (!await guards.cliTokens.revoke(request.user.sub, request.params.tokenId)) throw notFound('cli_token_not_found', 'CLI token')
    request.log.info({ tokenId: request.params.tokenId }, 'CLI token revoked')
    return await reply.code(204).send(null)
  })
}

function view (token: CliTokenView) {
  const { id, name, createdAt, expiresAt, lastUsedAt } = token
  return { id, name, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString(), lastUsedAt: lastUsedAt?.toISOString() ?? null }
}

export default cliTokenRoutes
