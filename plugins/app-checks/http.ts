import { request, type Dispatcher } from 'undici'
import { CONNECTION_FAILED, literalTargetRefused, outboundUrlProblem, type OutboundPolicy } from '../../server/url-policy.ts'
import type { Evidence } from './schemas.ts'
import type { Clock } from '../../server/clock.ts'

/** Bytes of an answer kept as evidence (DESIGN §18: the first 1 KB). */
export const EVIDENCE_BYTES = 1024

export interface Probe extends Evidence {
  /** The outbound URL policy's reason when the call was refused before any connection. */
  refused: string | null
  /** A connection error or a timeout, in words; null when an answer came. */
  error: string | null
  /** Bytes of the answer read (at most `readBytes`; more means the answer was bigger). */
  bytes: number
}

export interface ProbeOptions {
  policy: OutboundPolicy
  /** The evidence's `at`. */
  clock: Clock
  dispatcher: Dispatcher
  timeoutMs: number
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** What the evidence calls this request ("forged signature"). */
  label?: string
  /** Read at most this many bytes of the answer (default 1 KB): a script check reads up to its size limit. */
  readBytes?: number
}

function flatHeaders (headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

/**
 * One outbound call of a check, under the outbound URL policy: a URL the policy refuses is never
 * connected to (the evidence says why); otherwise the call goes through the policy's agent (address
 * pinned in production), never follows a redirect, and is cut at `timeoutMs`. Never throws.
 */
export async function probe (url: string, options: ProbeOptions): Promise<Probe> {
  const method = options.method ?? 'GET'
  const at = options.clock.now().toISOString()
  const describe = `${method} ${url}${options.label === undefined ? '' : ` (${options.label})`}`
  const base = { request: describe, status: null, headers: {}, body: '', durationMs: 0, at, bytes: 0 }
  const refused = await outboundUrlProblem(url, options.policy) ?? (literalTargetRefused(url, options.policy) ? CONNECTION_FAILED : null)
  if (refused !== null) return { ...base, refused, error: `refused by the outbound URL policy: ${refused}` }

  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const limit = options.readBytes ?? EVIDENCE_BYTES
  try {
    const response = await request(url, {
      method, headers: options.headers, body: options.body, dispatcher: options.dispatcher,
      signal: AbortSignal.timeout(options.timeoutMs), headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs
    })
    const chunks: Buffer[] = []
    let bytes = 0
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer
      chunks.push(buffer)
      bytes += buffer.length
      if (bytes > limit) { response.body.destroy(); break }
    }
    const all = Buffer.concat(chunks)
    return {
      ...base, status: response.statusCode, headers: flatHeaders(response.headers), body: all.subarray(0, EVIDENCE_BYTES).toString('utf8'),
      durationMs: elapsed(), bytes, refused: null, error: null
    }
  } catch (error) {
    const err = error as { name?: string, code?: string, message?: string }
    const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT'
    const message = timedOut
      ? `no answer within ${options.timeoutMs} ms`
      : options.policy.production ? CONNECTION_FAILED : `${err.code ?? err.name ?? 'Error'}: ${err.message ?? String(error)}`.slice(0, 300)
    return { ...base, durationMs: elapsed(), refused: null, error: message }
  }
}

/** The evidence part of a probe (what is stored and shown). */
export function evidence (p: Probe): Evidence {
  return { request: p.request, status: p.status, headers: p.headers, body: p.body, durationMs: p.durationMs, at: p.at }
}

/** What went wrong with a call that got no answer, for a result's detail. */
export const noAnswer = (p: Probe): string => p.refused !== null ? `Refused by the outbound URL policy: ${p.refused}` : `No answer: ${p.error ?? 'unknown error'}`
