import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { httpError } from './errors.ts'
import { rateLimitRedis } from '../../server/redis.ts'

export const RATE_LIMIT_WINDOW_MS = 60_000

/**
 * RATE_LIMIT_PER_MINUTE per installation in a fixed one-minute window, with X-RateLimit-* headers on
 * every response (Reset as a Unix timestamp, as the spec says). With REDIS_URL all processes share
 * one budget; if Redis is unreachable requests are let through rather than failed. A call without a
 * valid token counts against its address and gets the headers too (DESIGN §21); `then` runs on every
 * route right after the limit (the limit's hook is the route's own, so it runs after the scope's).
 */
export async function registerAppRateLimit (fastify: FastifyInstance, options: { then: onRequestAsyncHookHandler }): Promise<void> {
  const { rateLimitPerMinute } = fastify.config
  const redis = rateLimitRedis(fastify)
  await fastify.register(rateLimit, {
    max: rateLimitPerMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    hook: 'onRequest',
    keyGenerator: (request) => request.installation?.id ?? request.ip,
    redis,
    nameSpace: 'platform-rate-limit-',
    skipOnError: true,
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      httpError(429, 'rate_limited', `Rate limit exceeded: ${context.max} requests per minute per installation. Retry in ${context.after}.`)
  })
  fastify.addHook('onRoute', (route) => {
    route.onRequest = [...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]), options.then]
  })
  // the plugin sends seconds until the reset; the spec wants the Unix time of the reset
  fastify.addHook('onSend', async (_request, reply) => {
    const secondsLeft = reply.getHeader('x-ratelimit-reset')
    if (secondsLeft !== undefined) reply.header('x-ratelimit-reset', Math.floor(Date.now() / 1000) + Number(secondsLeft))
  })
}
