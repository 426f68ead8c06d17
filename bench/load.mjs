import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

/**
 * The load generator, in its own process so that it does not share the server's event loop.
 * argv: url, tokens file ('-' for none), seconds, connections, and an App-Api-Version to send (optional).
 * Prints one JSON line. Plain JavaScript,
 * so that each run starts in a tenth of a second, without a TypeScript loader.
 */
const [url, tokensFile, seconds, connections, apiVersion] = process.argv.slice(2)
const versionHeader = apiVersion === undefined ? {} : { 'app-api-version': apiVersion }
/** @type {string[]} */
const tokens = tokensFile === '-' ? [] : JSON.parse(readFileSync(tokensFile, 'utf8'))
let next = 0

const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  requests: [{
    method: 'GET',
    // a different installation's token on every request
    setupRequest: (request) => tokens.length === 0
      ? request
      : { ...request, headers: { ...request.headers, ...versionHeader, authorization: `Bearer ${tokens[next++ % tokens.length]}` } }
  }]
})

process.stdout.write(JSON.stringify({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts
}) + '\n')
