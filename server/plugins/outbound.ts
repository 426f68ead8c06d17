import fp from 'fastify-plugin'
import { outboundPolicy, type OutboundPolicy } from '../url-policy.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Where webhooks and hook calls may go (DESIGN §16 "Outbound URL policy"). */
    outbound: OutboundPolicy
  }
}

/** The outbound URL policy of this process; tests replace the resolver and classifier. */
export default fp(async function outboundPlugin (fastify, opts: { overrides?: Partial<Pick<OutboundPolicy, 'resolve' | 'classify'>> }) {
  fastify.decorate('outbound', outboundPolicy(fastify.config.production, opts.overrides))
}, { name: 'outbound', dependencies: ['config'] })
