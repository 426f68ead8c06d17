import type { FastifyInstance, FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { httpError } from './http-errors.ts'
import { Redis } from 'ioredis'

/**
 * A Redis client for a rate-limit store when REDIS_URL is set (undefined otherwise), disconnected
 * when the app closes. Quick to give up (one retry, 2 s to connect): the limiters skip on error
 * rather than hold requests.
 */
export function rateLimitRedis (fastify: FastifyInstance): Redis | undefined {
  const { redisUrl } = fastify.config
  if (redisUrl === null) return undefined
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: true })
  fastify.addHook('onClose', async () => { redis.disconnect() })
  return redis
}

export interface PerMinuteLimit {
  max: number
  /** Whose budget a request spends (a client address, an address and a store, …). */
  key: (request: FastifyRequest) => string
  /** Redis key prefix, one per limit. */
  nameSpace: string
  /** The 429 message, given the limit, when to retry and the refused request. */
  refusal: (max: number, after: string, request: FastifyRequest) => string
}

/**
 * An opt-in per-minute limit on `fastify` (`global: false`): only routes whose config carries
 * `{ rateLimit: {} }` count. Checked in onRequest, before the body is read; with REDIS_URL the counts
 * are shared by every process, and if Redis fails requests are let through. 429 in the error format.
 */
export async function registerPerMinuteLimit (fastify: FastifyInstance, limit: PerMinuteLimit): Promise<void> {
  await fastify.register(rateLimit, {
    global: false,
    max: limit.max,
    timeWindow: 60_000,
    hook: 'onRequest',
    keyGenerator: limit.key,
    redis: rateLimitRedis(fastify),
    nameSpace: limit.nameSpace,
    skipOnError: true,
    errorResponseBuilder: (request, context) => httpError(429, 'rate_limited', limit.refusal(context.max, context.after, request))
  })
}
