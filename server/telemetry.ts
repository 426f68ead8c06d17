import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api'

/**
 * OpenTelemetry for the service (DESIGN §20). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then
 * `startTelemetry` (server/telemetry-start.ts, imported first by server/main.ts) installs a tracer
 * provider, the OTLP/HTTP exporter and the pg and undici instrumentations. This file is what the rest
 * of the code uses; with no provider installed every call here is the API's no-op.
 */
export const TRACER_NAME = 'app-platform'
const tracer = () => trace.getTracer(TRACER_NAME)

/** The active span's context as a W3C `traceparent` (null without an active, sampled span): stored with an outbox event. */
export function currentTraceParent (): string | null {
  if (trace.getActiveSpan() === undefined) return null
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier.traceparent ?? null
}

/**
 * The log lines' `trace_id` and `span_id` (pino's mixin): empty without an active span, or when the
 * logger is a request's, already bound to its request span (server/plugins/tracing.ts).
 */
export function traceFields (_merge?: object, _level?: number, logger?: { bindings: () => Record<string, unknown> }): Record<string, string> {
  const span = trace.getActiveSpan()
  if (span === undefined || logger?.bindings().trace_id !== undefined) return {}
  const { traceId, spanId } = span.spanContext()
  return { trace_id: traceId, span_id: spanId }
}

/**
 * Runs `work` in a span. `parent`: a stored `traceparent` (a webhook attempt continues the trace of
 * the request that wrote its event), else the active context's span is the parent.
 */
export async function inSpan<T> (name: string, options: { parent?: string | null, kind?: SpanKind, attributes?: Record<string, string | number> },
  work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent === undefined
    ? context.active()
    : options.parent === null ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent: options.parent })
  return await tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent, async (span) => {
    try {
      return await work(span)
    } catch (error) {
      span.recordException(error as Error)
      span.setStatus({ code: SpanStatusCode.ERROR })
      throw error
    } finally {
      span.end()
    }
  })
}

export { SpanKind, SpanStatusCode }
