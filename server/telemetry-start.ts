import { createRequire } from 'node:module'
import type { FastifyPluginCallback } from 'fastify'

/**
 * Imported first by server/main.ts, before anything loads `pg` or `undici`, so that the
 * instrumentations can wrap them. With OTEL_EXPORTER_OTLP_ENDPOINT unset nothing starts and the
 * tracing calls of server/telemetry.ts stay no-ops. The exporter reads the standard OTEL_* variables
 * (endpoint, headers, OTEL_BSP_SCHEDULE_DELAY …); OTEL_SERVICE_NAME names the service (`app-platform`).
 */
export interface Telemetry {
  /** @fastify/otel's plugin: a span per request with its hooks and handler, the caller's `traceparent` continued. */
  fastifyPlugin: FastifyPluginCallback
  /** Exports the spans still buffered (on shutdown). */
  shutdown: () => Promise<void>
}

const DEFAULT_SERVICE_NAME = 'app-platform'

function start (env: NodeJS.ProcessEnv): Telemetry | null {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT === '') return null
  // loaded only when tracing is on (they are CommonJS: synchronously, still before pg and undici load);
  // unused, they were a tenth of every start's module loading
  const require = createRequire(import.meta.url)
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node')
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base')
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources')
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation')
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg')
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici')
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel')
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? DEFAULT_SERVICE_NAME, 'app_platform.process_role': env.PROCESS_ROLE ?? 'all' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())]
  })
  // the AsyncLocalStorage context manager and the W3C trace-context propagator
  provider.register()
  const fastify = new FastifyOtelInstrumentation()
  registerInstrumentations({
    tracerProvider: provider,
    // only inside a trace: the pool's housekeeping and pg-boss's polling make no traces of their own
    instrumentations: [new PgInstrumentation({ requireParentSpan: true }), new UndiciInstrumentation({ requireParentforSpans: true }), fastify]
  })
  return { fastifyPlugin: fastify.plugin() as FastifyPluginCallback, shutdown: async () => { await provider.shutdown() } }
}

/** Started once, as this module loads (main.ts imports it first). */
const telemetry = start(process.env)

/** The process's telemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set (main.ts hands its fastify plugin to the app). */
export const activeTelemetry = (): Telemetry | null => telemetry
