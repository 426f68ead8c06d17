import { request } from 'undici'
import type { RelayOutcome } from '../relay/service.ts'
import { CONNECTION_FAILED, literalTargetRefused, outboundAgent, type OutboundPolicy } from '../../server/url-policy.ts'

/** Bytes of the receiver's answer kept in the attempt log. */
export const SNIPPET_BYTES = 1024
/** Connections kept per receiver origin. */
const CONNECTIONS_PER_ORIGIN = 64
const KEEP_ALIVE_MS = 30_000

export interface SendResult {
  success: boolean
  statusCode: number | null
  durationMs: number
  error: string | null
  responseSnippet: string | null
  /** Answered through a developer's `app-platform listen` session instead of the network (DESIGN §19). */
  relayed?: boolean
}

/** A relayed answer read as a direct one: a 2xx succeeds, anything else or no answer within the timeout fails. */
export function relayedResult (outcome: RelayOutcome, timeoutMs: number): SendResult {
  if (!outcome.answered) {
    return { success: false, statusCode: null, durationMs: outcome.durationMs, error: `Timed out after ${timeoutMs} ms`, responseSnippet: null, relayed: true }
  }
  const success = outcome.answer.status >= 200 && outcome.answer.status < 300
  const snippet = Buffer.from(outcome.answer.body).subarray(0, SNIPPET_BYTES).toString('utf8')
  return {
    success, statusCode: outcome.answer.status, durationMs: outcome.durationMs, error: success ? null : `HTTP ${outcome.answer.status}`,
    responseSnippet: snippet === '' ? null : snippet, relayed: true
  }
}

/** A failed exchange for the log the app reads: in production, nothing about the target beyond "connection failed". */
function describe (error: unknown, timeoutMs: number, production: boolean): string {
  const err = error as { name?: string, code?: string, message?: string }
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return `Timed out after ${timeoutMs} ms`
  }
  if (production) return CONNECTION_FAILED
  return `${err.code ?? err.name ?? 'Error'}: ${err.message ?? String(error)}`.slice(0, 500)
}

/**
 * Outbound webhook POSTs over a keep-alive pool. Redirects are never followed (a 3xx is a failure),
 * and the whole exchange is cut at timeoutMs. In production the URL policy is applied again at send
 * time, as the connection is made (the address is pinned): a host that resolves to a special-use
 * address now is refused even if it did not at registration.
 */
export function createSender (options: { timeoutMs: number, outbound: OutboundPolicy }) {
  const agent = outboundAgent(options.outbound, { connections: CONNECTIONS_PER_ORIGIN, keepAliveTimeout: KEEP_ALIVE_MS, pipelining: 1 })
  const { timeoutMs } = options
  const { production } = options.outbound

  async function send (url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    if (literalTargetRefused(url, options.outbound)) {
      return {
        success: false, statusCode: null, durationMs: elapsed(), error: CONNECTION_FAILED,
        responseSnippet: null
      }
    }
    const signal = AbortSignal.timeout(timeoutMs)
    try {
      const response = await request(url, { method: 'POST', body, headers, dispatcher: agent, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
      let snippet = ''
      for await (const chunk of response.body) {
        if (snippet.length < SNIPPET_BYTES) snippet += (chunk as Buffer).toString('utf8')
        if (snippet.length >= SNIPPET_BYTES) { response.body.destroy(); break }
      }
      const success = response.statusCode >= 200 && response.statusCode < 300
      return {
        success,
        statusCode: response.statusCode,
        durationMs: elapsed(),
        error: success ? null : `HTTP ${response.statusCode}`,
        responseSnippet: snippet === '' ? null : Buffer.from(snippet).subarray(0, SNIPPET_BYTES).toString('utf8')
      }
    } catch (error) {
      return { success: false, statusCode: null, durationMs: elapsed(), error: describe(error, timeoutMs, production), responseSnippet: null }
    }
  }

  return { send, close: async () => { await agent.close() } }
}

export type Sender = ReturnType<typeof createSender>
