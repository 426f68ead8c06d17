import fp from 'fastify-plugin'
import type { Tx } from '../../server/db/client.ts'
import { createPortalService, type AppRow } from './service.ts'

export type AppApprovedListener = (tx: Tx, app: AppRow, previouslyApproved: string[]) => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    /** Apps: ownership, edits, credentials. OAuth and review call it too. */
    apps: ReturnType<typeof createPortalService>
    /** Run inside the approval transaction (installations: convert test installs, flag re-consent). */
    onAppApproved: AppApprovedListener[]
  }
}

export default fp(async function portalService (fastify) {
  fastify.decorate('apps', createPortalService(fastify.db, { production: fastify.config.production }))
  fastify.decorate('onAppApproved', [] as AppApprovedListener[])
}, { name: 'portal-service', dependencies: ['db', 'config'] })
