import type { FastifyServerOptions } from 'fastify'
import { traceFields } from './telemetry.ts'

/**
 * The process's logger: human-readable lines (pino-pretty, in a worker thread) when stdout is a
 * terminal, JSON lines otherwise, for log collectors and the tests that read the output. A line
 * written inside a span (a webhook attempt, a job) carries its `trace_id` and `span_id`.
 */
export function loggerOptions (level: string, terminal = process.stdout.isTTY === true): NonNullable<FastifyServerOptions['logger']> {
  if (!terminal) return { level, mixin: traceFields }
  return {
    level,
    mixin: traceFields,
    transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true } }
  }
}
