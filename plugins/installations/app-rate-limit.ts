import type { FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { httpError } from './errors.ts'
import { rateLimitRedis } from '../../server/redis.ts'

export const RATE_LIMIT_WINDOW_MS = 60_000

/**
 * RATE_LIMIT_PER_MINUTE per installation in a fixed one-minute window, with X-RateLimit-* headers on
 * every response (Reset as a Unix timestamp, as the spec says). With REDIS_URL all processes share
 * one budget; if Redis is unreachable requests are let through rather than failed.
 */
export async function registerAppRateLimit (fastify: FastifyInstance): Promise<void> {
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
  // the plugin sends seconds until the reset; the spec wants the Unix time of the reset
  fastify.addHook('onSend', async (_request, reply) => {
    const secondsLeft = reply.getHeader('x-ratelimit-reset')
    if (secondsLeft !== undefined) reply.header('x-ratelimit-reset', Math.floor(Date.now() / 1000) + Number(secondsLeft))
  })
}
