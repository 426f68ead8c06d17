import type { IncomingMessage, ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { InjectOptions, Response } from 'light-my-request'
import { createOrigins, type Origins } from '../origins.ts'
import { errorBody } from '../http-errors.ts'
import { PREFIX } from '../api-prefixes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The API, admin and storefront origins (DESIGN §14), read at request time. */
    origins: Origins
    /** The storefront's own listener: main.ts serves `handler` on STOREFRONT_PORT; tests `inject` into it. */
    storefront: StorefrontListener
  }
}

export interface StorefrontListener {
  handler: (request: IncomingMessage, response: ServerResponse) => void
  inject: (options: InjectOptions | string) => Promise<Response>
}

/** A store's slug (`_assets` and the like are not). */
const STORE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const under = (path: string, root: string) => path === root || path.startsWith(`${root}/`)
/** What the storefront origin serves besides the stores: uploaded images, and health for its load balancer. */
const STOREFRONT_EXTRA = [PREFIX.media, '/health', '/ready']

/**
 * One app, two listeners. Requests that arrive through the storefront listener are marked; the
 * storefront origin answers only `/store/...` (pages, assets, customer API) and `/media`, and every
 * other origin answers `/store/...` with a 308 to the storefront, so no storefront page (and no
 * embed) ever runs where the admin's session lives.
 */
export default fp(async function originsPlugin (fastify) {
  const origins = createOrigins(fastify.config)
  fastify.decorate('origins', origins)

  const fromStorefront = new WeakSet<IncomingMessage>()
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    fromStorefront.add(request)
    fastify.routing(request, response)
  }
  fastify.decorate('storefront', {
    handler,
    inject: async (options: InjectOptions | string) => {
      await fastify.ready()
      // loaded on first use, as fastify does: the process that listens never needs it
      const { default: inject } = await import('light-my-request')
      return await inject(handler, asOnStoreHost(typeof options === 'string' ? { url: options } : options))
    }
  })

  /** An injected request without a Host reaches a store's page as a browser would: on the store's own host. */
  function asOnStoreHost (options: InjectOptions): InjectOptions {
    const headers = (options.headers ?? {}) as Record<string, unknown>
    const url = typeof options.url === 'string' ? options.url : options.path
    const slug = typeof url === 'string' ? url.split('?')[0].split('/')[2] ?? '' : ''
    if (!origins.perStoreHosts || headers.host !== undefined || !STORE_SLUG.test(slug)) return options
    return { ...options, headers: { ...headers, host: new URL(origins.storefrontOrigin(slug)).host } }
  }

  /**
   * With per-store hosts a store's pages are served only on its own host, so stores never share an
   * origin: another store's host, and the bare host, get a 308 to it. The bare host still answers
   * the customer API (`/store/:slug/api/...`) for clients that cannot resolve a store's host (DESIGN §21).
   */
  async function toStoreHost (request: FastifyRequest, reply: FastifyReply, path: string) {
    const [, , slug = '', section] = path.split('/')
    if (!origins.perStoreHosts || !STORE_SLUG.test(slug)) return
    const store = origins.storeOfHost(request.host)
    if (store === slug || (store === null && section === 'api')) return
    return await reply.redirect(`${origins.storefrontOrigin(slug)}${request.url}`, 308)
  }

  fastify.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]
    if (fromStorefront.has(request.raw)) {
      if (under(path, PREFIX.store)) return await toStoreHost(request, reply, path)
      if (STOREFRONT_EXTRA.some((root) => under(path, root))) return
      return await reply.code(404).send(errorBody(404, 'not_found', `Route ${request.method} ${path} is not served on the storefront origin`))
    }
    if (!under(path, PREFIX.store)) return
    const slug = path.split('/')[2] ?? ''
    if (origins.perStoreHosts && !STORE_SLUG.test(slug)) return await reply.code(404).send(errorBody(404, 'not_found', 'The storefront lives on its own origin'))
    return await reply.redirect(`${origins.storefrontOrigin(slug)}${request.url}`, 308)
  })
}, { name: 'origins', dependencies: ['config'] })
