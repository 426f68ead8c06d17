import fp from 'fastify-plugin'
import type { Telemetry } from '../telemetry-start.ts'

/**
 * With OpenTelemetry on (server/telemetry-start.ts): @fastify/otel's span per request, and the
 * request's log lines carry its `trace_id` and `span_id` (the request logger is bound once the
 * request span exists, so "request completed" has them too).
 */
export default fp(async function tracingPlugin (fastify, opts: { telemetry: Telemetry }) {
  await fastify.register(opts.telemetry.fastifyPlugin)
  fastify.addHook('onRequest', async (request, reply) => {
    const span = request.opentelemetry().span
    if (span === undefined || span === null) return
    const { traceId, spanId } = span.spanContext()
    request.log = request.log.child({ trace_id: traceId, span_id: spanId })
    reply.log = request.log
  })
}, { name: 'tracing' })
