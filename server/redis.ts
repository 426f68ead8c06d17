import type { FastifyInstance } from 'fastify'
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
