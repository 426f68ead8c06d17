import fp from 'fastify-plugin'
import type { Tx } from '../../server/db/client.ts'
import { createAppsService, type AppRow } from './service.ts'

export type AppApprovedListener = (tx: Tx, app: AppRow, previouslyApproved: string[]) => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    /** Apps: ownership, edits, credentials. OAuth and review call it too. */
    apps: ReturnType<typeof createAppsService>
    /** Run inside the approval transaction (installations: convert test installs, flag re-consent). */
    onAppApproved: AppApprovedListener[]
  }
}

export default fp(async function portalService (fastify) {
  fastify.decorate('apps', createAppsService(fastify.db, { production: fastify.config.production }))
  fastify.decorate('onAppApproved', [] as AppApprovedListener[])
}, { name: 'apps-service', dependencies: ['db', 'config'] })
