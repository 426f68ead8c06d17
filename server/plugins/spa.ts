import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fp from 'fastify-plugin'
import fastifyStatic from '@fastify/static'
import { errorBody } from '../http-errors.ts'
import { API_ROOTS } from '../api-prefixes.ts'

export const SPA_ROOT = fileURLToPath(new URL('../../admin-ui/dist', import.meta.url))

/** Under one of the API roots: an unknown path there is a JSON 404, never the SPA (DESIGN §6). */
export function isApiPath (url: string): boolean {
  const path = url.split('?')[0]
  return API_ROOTS.some(({ path: root }) => path === root || path.startsWith(`${root}/`))
}

/** Serves the Vite build at `/`; GET requests for client-side routes get index.html. */
export default fp(async function spaPlugin (fastify, opts: { root?: string }) {
  const root = opts.root ?? SPA_ROOT
  const available = existsSync(`${root}/index.html`)
  if (available) {
    await fastify.register(fastifyStatic, { root, prefix: '/', wildcard: false, index: false })
    fastify.get('/', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'))
  } else {
    fastify.log.warn({ root }, 'admin UI build not found: run `npm run build:ui`')
  }
  fastify.setNotFoundHandler((request, reply) => {
    if (available && request.method === 'GET' && !isApiPath(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${request.url.split('?')[0]} not found`))
  })
}, { name: 'spa' })
