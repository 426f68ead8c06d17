import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import basicAuth from '@fastify/basic-auth'
import type { AppRow } from '../apps/service.ts'
import { HttpError } from '../../server/http-errors.ts'
import { oauthError } from './errors.ts'
import type { Apps } from '../apps/index.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the client authentication of POST /oauth/token and /oauth/revoke. */
    oauthClient: AppRow | null
  }
}

/**
 * RFC 6749 §2.3.1: the client id and secret are application/x-www-form-urlencoded before they go
 * into the Basic header (so `fbcs_` arrives as `fbcs%5F`). A value that is not valid encoding is
 * taken as it is.
 */
export function formDecode (value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    return value
  }
}

/**
 * Registers HTTP Basic client authentication on the (encapsulated) oauth scope and returns the
 * onRequest hook of the endpoints that need it: invalid_client (401) when it fails.
 */
export async function registerClientAuth (fastify: FastifyInstance, apps: Pick<Apps, 'verifyClientCredentials'>) {
  fastify.decorateRequest('oauthClient', null)
  await fastify.register(basicAuth, {
    authenticate: false,
    validate: async (clientId, clientSecret, request) => {
      const decodedId = formDecode(clientId)
      const decodedSecret = formDecode(clientSecret)
      let app = await apps.verifyClientCredentials(decodedId, decodedSecret)
      // raw values keep working for clients that skip the encoding step
      if (app === null && (decodedId !== clientId || decodedSecret !== clientSecret)) app = await apps.verifyClientCredentials(clientId, clientSecret)
      if (app === null) throw oauthError('invalid_client', 'Client authentication failed')
      request.oauthClient = app
    }
  })

  return async function requireClient (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!/^Basic\s/i.test(request.headers.authorization ?? '')) throw oauthError('invalid_client', 'Client authentication required: HTTP Basic with client_id and client_secret')
    await new Promise<void>((resolve, reject) => {
      fastify.basicAuth(request, reply, (error) => {
        if (error === undefined) resolve()
        // a malformed header is the plugin's own error: answer it in the RFC shape too
        else reject(error instanceof HttpError ? error : oauthError('invalid_client', 'Malformed HTTP Basic credentials'))
      })
    })
  }
}
