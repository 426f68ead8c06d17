import fp from 'fastify-plugin'

/**
 * JSON answers are never stored by a browser or a shared cache unless their route says otherwise
 * (`Cache-Control` set): a login's JWT, a new client secret, a test install's token and webhook secret
 * and admin session tokens must not outlive the response in any cache, and a default on every JSON
 * answer cannot miss a route that starts carrying one.
 */
export default fp(async function noStore (fastify) {
  fastify.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type')
    if (!reply.hasHeader('cache-control') && typeof type === 'string' && type.startsWith('application/json')) reply.header('cache-control', 'no-store')
    return payload
  })
}, { name: 'no-store' })
