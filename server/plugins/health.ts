import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ping } from '../db/client.ts'

const Status = (value: string) => Type.Object({ status: Type.Literal(value) })
const NotReady = Type.Object({ status: Type.Literal('unavailable'), reason: Type.String() })

/** Liveness (the process answers) and readiness (database reachable, migrations applied). */
const health: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/health', {
    schema: { tags: ['operations'], operationId: 'getHealth', security: [], summary: 'Liveness', description: 'Liveness: the process answers. No dependency is checked, so a load balancer does not take every process out when the database blinks.', response: { 200: Status('ok') } }
  }, async () => ({ status: 'ok' as const }))

  fastify.get('/ready', {
    schema: { tags: ['operations'], operationId: 'getReadiness', security: [], summary: 'Readiness: database reachable and migrated', description: 'Readiness: 200 once the database answers and every migration is applied; 503 with the reason otherwise.', response: { 200: Status('ready'), 503: NotReady } }
  }, async (request, reply) => {
    try {
      await ping(fastify.db)
      const pending = await fastify.database.pendingMigrations()
      if (pending > 0) return reply.code(503).send({ status: 'unavailable' as const, reason: `${pending} migration(s) pending` })
      return { status: 'ready' as const }
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed')
      return reply.code(503).send({ status: 'unavailable' as const, reason: 'database unreachable' })
    }
  })
}

export default health
