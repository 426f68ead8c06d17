import type { FastifyServerOptions } from 'fastify'

/**
 * The process's logger: human-readable lines (pino-pretty, in a worker thread) when stdout is a
 * terminal, JSON lines otherwise, for log collectors and the tests that read the output.
 */
export function loggerOptions (level: string, terminal = process.stdout.isTTY === true): NonNullable<FastifyServerOptions['logger']> {
  if (!terminal) return { level }
  return {
    level,
    transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true } }
  }
}
