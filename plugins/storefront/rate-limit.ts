import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { registerPerMinuteLimit } from '../../server/redis.ts'

/**
 * Opt-in route config for the public storefront writes (reviews, checkout quotes, orders): each
 * route allows STOREFRONT_RATE_LIMIT_PER_MINUTE calls per client address per store.
 */
export const STOREFRONT_WRITE_LIMIT = { rateLimit: {} }

const keyOf = (request: FastifyRequest) => `${request.ip}|${(request.params as { businessSlug?: string }).businessSlug ?? ''}`

/**
 * The customer API needs no credentials, so its writes are limited per client address and store
 * (an order takes stock and calls the apps' hooks; a review is public). Registered at the root with
 * `global: false`: only routes whose config carries STOREFRONT_WRITE_LIMIT are counted. With
 * REDIS_URL the counts are shared by all processes; if Redis fails, requests are let through.
 */
export default fp(async function storefrontRateLimit (fastify) {
  await registerPerMinuteLimit(fastify, {
    max: fastify.config.storefrontRateLimitPerMinute,
    key: keyOf,
    nameSpace: 'platform-storefront-limit-',
    refusal: (max, after) => `Too many requests to this store from your address: ${max} per minute. Retry in ${after}.`
  })
}, { name: 'storefront-rate-limit', dependencies: ['config'] })
