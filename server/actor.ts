import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import type { ActorType } from './db/schema/index.ts'

/**
 * Who is acting (DESIGN §24): the activity log's actor travels with the request, not through every
 * service's signature. `id` is a user id (staff), an installation id (app) or the customer's email;
 * `name` is given only where no table holds it (a customer's, from the order or review).
 */
export interface Actor { type: ActorType, id: string | null, name?: string }

/** Anything outside a request (pg-boss jobs, timers started at boot, the demo seed) is the platform. */
export const PLATFORM: Actor = { type: 'platform', id: null }

/** A request's store: the request itself, read when a change is written (after its guards ran), and an actor set by a route. */
interface ActorStore { request: FastifyRequest, actor: Actor | null }

const storage = new AsyncLocalStorage<ActorStore>()

/**
 * The current actor: one a route set (the storefront's customer), else the app of an App API token
 * (`request.installation`), else the signed-in user (`request.user`: staff), else the platform.
 * Read lazily, so it does not matter which hook authenticated the request, or when.
 */
export function currentActor (): Actor {
  const store = storage.getStore()
  if (store === undefined) return PLATFORM
  if (store.actor !== null) return store.actor
  const { request } = store
  const installation = (request as { installation?: { id: string } | null }).installation
  if (installation != null) return { type: 'app', id: installation.id }
  const user = (request as { user?: { sub?: unknown } | null }).user
  if (user != null && typeof user.sub === 'string') return { type: 'staff', id: user.sub }
  return PLATFORM
}

/** Sets the actor of the current request (a storefront route: `customer`); outside a request it does nothing. */
export function actAs (actor: Actor): void {
  const store = storage.getStore()
  if (store !== undefined) store.actor = actor
}

/** Runs `work` as `actor`, outside any request's (the demo seed, tests). */
export async function runAs<T> (actor: Actor, work: () => Promise<T>): Promise<T> {
  return await storage.run({ request: {} as unknown as FastifyRequest, actor }, work)
}

const RESOURCE = Symbol('actorResource')

/**
 * Opens each request's actor store in onRequest, at the root, so every later hook and the handler run in
 * it. The body is parsed in the stream's own async context, so preValidation re-enters the request's
 * (the way @fastify/request-context does it, nodejs/node#34430).
 */
export default fp(async function actorPlugin (fastify) {
  fastify.decorateRequest(RESOURCE, null)
  fastify.addHook('onRequest', (request, _reply, done) => {
    storage.run({ request, actor: null }, () => {
      const resource = new AsyncResource('actor')
      ;(request as unknown as Record<symbol, AsyncResource>)[RESOURCE] = resource
      resource.runInAsyncScope(done, request.raw)
    })
  })
  fastify.addHook('preValidation', (request, _reply, done) => {
    const resource = (request as unknown as Record<symbol, AsyncResource | null>)[RESOURCE]
    if (resource == null) done()
    else resource.runInAsyncScope(done, request.raw)
  })
}, { name: 'actor' })
