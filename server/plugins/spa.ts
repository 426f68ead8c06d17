import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fp from 'fastify-plugin'
import type { FastifyReply } from 'fastify'
import fastifyStatic from '@fastify/static'
import { errorBody } from '../http-errors.ts'
import { API_ROOTS } from '../api-prefixes.ts'
import { ADMIN_HEADERS, adminContentSecurityPolicy } from '../admin-headers.ts'

export const SPA_ROOT = fileURLToPath(new URL('../../admin-ui/dist', import.meta.url))

/** Under one of the API roots: an unknown path there is a JSON 404, never the SPA (DESIGN §6). */
export function isApiPath (url: string): boolean {
  const path = url.split('?')[0]
  return API_ROOTS.some(({ path: root }) => path === root || path.startsWith(`${root}/`))
}

export interface SpaOptions {
  root?: string
  /** Origins the SPA may frame (installed apps' admin pages, the storefront), read per page load. */
  frameSources?: () => Promise<string[]>
}

/** Serves the Vite build at `/`; GET requests for client-side routes get index.html, with the admin's CSP. */
export default fp(async function spaPlugin (fastify, opts: SpaOptions) {
  const root = opts.root ?? SPA_ROOT
  const frameSources = opts.frameSources ?? (async () => [])
  const available = existsSync(`${root}/index.html`)
  const sendIndex = async (reply: FastifyReply) => await reply.headers({
    ...ADMIN_HEADERS, 'cache-control': 'no-cache', 'content-security-policy': adminContentSecurityPolicy(await frameSources())
  }).sendFile('index.html')
  if (available) {
    await fastify.register(fastifyStatic, {
      root, prefix: '/', wildcard: false, index: false,
      setHeaders: (response) => { for (const [name, value] of Object.entries(ADMIN_HEADERS)) response.setHeader(name, value) }
    })
    fastify.get('/', { schema: { hide: true } }, async (_request, reply) => await sendIndex(reply))
  } else {
    fastify.log.warn({ root }, 'admin UI build not found: run `npm run build:ui`')
  }
  fastify.setNotFoundHandler(async (request, reply) => {
    if (available && request.method === 'GET' && !isApiPath(request.url)) {
      return await sendIndex(reply)
    }
    // a path that exists, asked with a method it does not have (server/plugins/method-not-allowed.ts)
    const allowed = fastify.hasDecorator('allowedMethods') ? fastify.allowedMethods(request.url) : []
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply.code(405).header('allow', allowed.join(', ')).send(errorBody(405, 'method_not_allowed', `${request.method} is not allowed on ${request.url.split('?')[0]}; allowed: ${allowed.join(', ')}`))
    }
    return reply.code(404).send(errorBody(404, 'not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`))
  })
}, { name: 'spa' })
