import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import type { App } from '../server/app.ts'
import { countStatements, statementKind, type Statement } from './statements.ts'

/**
 * The floor of an App API read on this machine (#44 item 5): what a read cannot beat. A bare node:http
 * server answers every request with the rows of the very statement the App API sent for that read (its
 * text and values, captured), through one node-postgres round trip on a pool as large as the app's, as a
 * named (prepared) statement as the app's are, the rows serialised as they come: no framework, no token,
 * no rate limit, no shaping of the rows.
 */
export async function floorServer (databaseUrl: string, statement: Statement, poolSize: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, application_name: 'bench-floor' })
  pool.on('error', () => {})
  const query = { name: 'bench-floor', text: statement.text, values: statement.values }
  const server = createServer((_request, response) => {
    pool.query(query).then((result) => {
      const body = JSON.stringify(result.rows)
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
      response.end(body)
    }, (error: Error) => {
      response.writeHead(500, { 'content-type': 'text/plain' })
      response.end(error.message)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close () {
      server.closeAllConnections()
      server.close()
      await pool.end()
    }
  }
}

/**
 * The one statement a read at `path` sends once its token is known (the first request looks the token up):
 * counted on a second request with the same token, leaving out what the process's background work sent
 * meanwhile (pg-boss, the counters' flush, the live tail). Throws when the read sends none or several,
 * since the floor is one round trip.
 */
export async function statementOf (app: App, path: string, token: string, apiVersion?: string): Promise<Statement> {
  const headers = { authorization: `Bearer ${token}`, ...(apiVersion === undefined ? {} : { 'app-api-version': apiVersion }) }
  const read = async () => {
    const response = await app.inject({ method: 'GET', url: path, headers })
    if (response.statusCode !== 200) throw new Error(`GET ${path}: ${response.statusCode} ${response.body}`)
  }
  await read()
  const counter = countStatements()
  try {
    await read()
    const sent = counter.take().filter((statement) => statementKind(statement) === 'other')
    if (sent.length !== 1) throw new Error(`GET ${path} sent ${sent.length} statements with a known token, not one:\n${sent.map((s) => s.text).join('\n')}`)
    return sent[0]
  } finally {
    counter.stop()
  }
}
