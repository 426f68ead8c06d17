import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import rateLimit from '@fastify/rate-limit'
import { errorResponses } from '../../server/schemas.ts'
import { rateLimitRedis } from '../../server/redis.ts'
import { httpError, oauthError, oauthErrorHandler } from './errors.ts'
import { CLI_CLIENT_ID, type DeviceFlow } from './device.ts'
import { DeviceAuthorizationBodySchema, DeviceAuthorizationSchema, DeviceDecisionBodySchema, DeviceInfoQuery, DeviceInfoSchema, OAuthErrorSchema } from './schemas.ts'
import type { Guards } from '../auth/guards.ts'

const tags = ['oauth']
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }
/** What the approval screen and the portal call a CLI that did not name its device. */
const DEFAULT_DEVICE_NAME = 'app-platform CLI'
/**
 * Code lookups, and decisions, one signed-in account may make from one address per minute (RFC 8628 §5.1):
 * a developer types a code a few times; 300 guesses in 5 s were answered before this limit.
 */
const DEVICE_CHECKS_PER_MINUTE = 20
/** After the role check (preHandler), so the key is the signed-in account and its address; GET and POST count apart. */
const PER_ACCOUNT_AND_ADDRESS = {
  rateLimit: {
    max: DEVICE_CHECKS_PER_MINUTE,
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `${request.user.sub}|${request.ip}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { max: number, after: string }) =>
      httpError(429, 'rate_limited', `Too many device codes tried: ${context.max} per minute. Retry in ${context.after}.`)
  }
}

/** RFC 8628 for the developer CLI (DESIGN §19): the device asks, the developer approves at /device, the CLI polls /oauth/token. */
const deviceRoutes: FastifyPluginAsyncTypebox<{ deviceFlow: DeviceFlow, guards: Pick<Guards, 'requireRole'> }> = async (fastify, { deviceFlow, guards }) => {
  // public and writing a row per call: limited per client address like sign-in, refused in the RFC 6749 shape
  await fastify.register(rateLimit, {
    global: false,
    max: fastify.config.authThrottle.perAddressPerMinute,
    timeWindow: 60_000,
    hook: 'onRequest',
    keyGenerator: (request) => request.ip,
    redis: rateLimitRedis(fastify),
    nameSpace: 'platform-device-limit-',
    skipOnError: true,
    errorResponseBuilder: (_request, context) => {
      const message = `Too many device logins from your address: ${context.max} per minute. Retry in ${context.after}.`
      return httpError(429, 'rate_limited', message, { error: 'rate_limited', error_description: message })
    }
  })

  fastify.post('/device_authorization', {
    config: { rateLimit: {} },
    errorHandler: oauthErrorHandler,
    schema: {
      tags, security: [], operationId: 'startDeviceAuthorization', summary: 'Start a device login (RFC 8628 §3.1): codes for the CLI and the developer',
      description: 'Public client `app-platform-cli`, no secret. Show `user_code` and `verification_uri` to the developer, then poll POST /oauth/token with grant_type=urn:ietf:params:oauth:grant-type:device_code every `interval` seconds. Another client_id is 401 invalid_client; more than AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE from one address is 429 rate_limited.',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: DeviceAuthorizationBodySchema, response: { 200: DeviceAuthorizationSchema, 400: OAuthErrorSchema, 401: OAuthErrorSchema, 429: OAuthErrorSchema }
    }
  }, async (request, reply) => {
    const { client_id: clientId, device_name: deviceName } = request.body
    if (clientId === undefined || clientId === '') throw oauthError('invalid_request', 'client_id is required')
    if (clientId !== CLI_CLIENT_ID) throw oauthError('invalid_client', `Device authorization is for the developer CLI (client_id=${CLI_CLIENT_ID})`)
    const name = deviceName?.trim() ?? ''
    return reply.headers(NO_STORE).send(await deviceFlow.start(name === '' ? DEFAULT_DEVICE_NAME : name, request.ip))
  })

  fastify.get('/device', {
    onRequest: guards.requireRole('DEVELOPER'),
    config: PER_ACCOUNT_AND_ADDRESS,
    schema: {
      tags, security: [{ developerJwt: [] }], operationId: 'getDeviceLogin', summary: 'The CLI login waiting under a user code, for the /device screen',
      description: '404 (`user_code_not_found`) when no login waits under the code or it expired; 400 (`user_code_invalid`) for a value that cannot be a code; 429 past 20 lookups a minute per account and address. `clientName` is the name the device chose; `requestedFrom` and `createdAt` are where and when it asked.',
      querystring: DeviceInfoQuery, response: { 200: DeviceInfoSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request) => await deviceFlow.describe(request.query.user_code))

  fastify.post('/device', {
    onRequest: guards.requireRole('DEVELOPER'),
    config: PER_ACCOUNT_AND_ADDRESS,
    schema: {
      tags, security: [{ developerJwt: [] }], operationId: 'decideDeviceLogin', summary: 'Approve or deny a CLI login (the /device screen)',
      description: 'Approving lets the CLI that shows this code receive a CLI token for the signed-in developer at its next poll. Once per code: 409 after a decision; 429 past 20 decisions a minute per account and address.',
      body: DeviceDecisionBodySchema, response: { 204: Type.Null({ description: 'Decided' }), ...errorResponses(400, 401, 403, 404, 409, 429) }
    }
  }, async (request, reply) => {
    await deviceFlow.decide(request.user.sub, request.body.user_code, request.body.decision)
    request.log.info({ decision: request.body.decision }, 'device login decided')
    return await reply.code(204).send(null)
  })
}

export default deviceRoutes
