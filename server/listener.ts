import type { ServerOptions } from 'node:http'
import type { Config } from './config.ts'

/** How often Node checks open requests against their timeouts (its default is 30 s, past the timeouts themselves). */
const CHECK_INTERVAL_MS = 1000

/**
 * The timeouts of every listener (DESIGN §20), the admin/API's and the storefront's alike: a client
 * that trickles its headers or body is cut off, and an idle keep-alive connection closed.
 */
export function listenerTimeouts (config: Config): Pick<ServerOptions, 'requestTimeout' | 'headersTimeout' | 'keepAliveTimeout' | 'connectionsCheckingInterval'> {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = config.listener
  return {
    requestTimeout: requestTimeoutMs,
    // Node refuses a headers timeout longer than the request timeout
    headersTimeout: Math.min(headersTimeoutMs, requestTimeoutMs),
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, requestTimeoutMs)
  }
}
