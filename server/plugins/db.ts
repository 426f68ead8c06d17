import fp from 'fastify-plugin'
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
