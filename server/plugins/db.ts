import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/client.ts'

declare module 'fastify' {
  interface FastifyInstance {
    database: Database
    db: Database['db']
  }
}

/** Exposes the opened database; the app factory owns opening and closing it. */
export default fp(async function dbPlugin (fastify, opts: { database: Database }) {
  fastify.decorate('database', opts.database)
  fastify.decorate('db', opts.database.db)
}, { name: 'db' })

/**
 * Keeps a process-local cache coherent with the other processes: `onMessage` gets each NOTIFY on
 * `channel`, and the cache is switched off (and emptied) while the LISTEN connection is down, since
 * what other processes notify meanwhile is lost. Unlistens when the app closes.
 */
export async function listenForCache (fastify: FastifyInstance, channel: string, name: string,
  cache: { setEnabled: (on: boolean) => void }, onMessage: (payload: string) => void): Promise<void> {
  const unlisten = await fastify.database.listen(channel, onMessage, {
    onLost: () => {
      fastify.log.warn(`LISTEN connection lost: the ${name} is off until it is back`)
      cache.setEnabled(false)
    },
    onRestored: () => {
      fastify.log.info(`LISTEN connection restored: the ${name} is on again`)
      cache.setEnabled(true)
    }
  })
  fastify.addHook('onClose', async () => { await unlisten().catch(() => {}) })
}
