import { createHash, timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { createMetrics, type Metrics } from '../metrics.ts'
import { forbidden, httpError } from '../http-errors.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus metrics of this process (DESIGN §20): services record into it, GET /metrics shows it. */
    metrics: Metrics
  }
}

/** Requests that matched no route share one label, so a scan of random URLs cannot grow the series. */
const UNMATCHED = '(unmatched)'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** 127.0.0.0/8 and ::1, as IPv4 or IPv4-mapped IPv6. */
function isLoopback (address: string | undefined): boolean {
  if (address === undefined) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4)
}

/**
 * Loopback means the socket's peer is this machine and no proxy forwarded the request: a reverse
 * proxy on the same host connects from loopback on behalf of anyone, and says so in a forwarding header.
 */
function fromLoopback (request: FastifyRequest): boolean {
  const { headers } = request
  return isLoopback(request.socket.remoteAddress) && headers['x-forwarded-for'] === undefined && headers.forwarded === undefined
}

/**
 * GET /metrics in the Prometheus text format, and the HTTP request metrics of every route. Open to
 * loopback; other hosts send METRICS_TOKEN as a bearer token (compared in constant time).
 */
export default fp(async function metricsPlugin (fastify) {
  const { config } = fastify
  const metrics = createMetrics({
    role: config.processRole,
    executor: fastify.database,
    poolStats: fastify.database.poolStats,
    queueStats: fastify.database.queueStats,
    onError: (error) => fastify.log.warn({ err: error }, 'metrics: job queue depth unavailable')
  })
  fastify.decorate('metrics', metrics)
  const expected = config.metricsToken === null ? null : digest(config.metricsToken)

  fastify.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.method, request.routeOptions.url ?? UNMATCHED, reply.statusCode, reply.elapsedTime / 1000)
  })

  fastify.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!fromLoopback(request)) {
      if (expected === null) throw forbidden('metrics_forbidden', 'Metrics are served to loopback only (set METRICS_TOKEN to allow other hosts with a bearer token)')
      const [scheme, token] = (request.headers.authorization ?? '').split(' ')
      if (scheme?.toLowerCase() !== 'bearer' || token === undefined || token === '') {
        throw httpError(401, 'metrics_token_missing', 'Send METRICS_TOKEN as a bearer token', {}, { 'www-authenticate': 'Bearer realm="metrics"' })
      }
      if (!timingSafeEqual(digest(token), expected)) throw httpError(401, 'metrics_token_invalid', 'Wrong metrics token', {}, { 'www-authenticate': 'Bearer realm="metrics", error="invalid_token"' })
    }
    return await reply.type(metrics.contentType).send(await metrics.text())
  })
}, { name: 'metrics', dependencies: ['config', 'db', 'errors'] })
