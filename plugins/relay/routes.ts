import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ServerResponse } from 'node:http'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { badRequest, notFound } from './errors.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { callEvent, HEARTBEAT_MS, type Relay, type RelayCallRow, type RelaySession } from './service.ts'
import { RelayAnswerBodySchema, RelayCallEventSchema, RelayCallParams, RelayedCallSchema, TriggerBodySchema, TriggeredSchema } from './schemas.ts'
import { TRIGGERABLE_EVENTS } from './samples.ts'
import type { Apps } from '../apps/index.ts'
import type { Guards } from '../auth/guards.ts'

/** What the relay's routes need of the others: the developer's own apps and the session guards. */
export interface RelayNeeds {
  apps: Pick<Apps, 'ownedApp'>
  guards: Pick<Guards, 'requireRole' | 'onSessionRevoked'>
}

const tags = ['portal']
const security = [{ developerJwt: [] }]
/** Relayed calls the console lists. */
const LISTED_CALLS = 50

const STREAM_DESCRIPTION = 'Server-sent events for `app-platform listen` (DESIGN §19). While connected, the webhook deliveries and hook calls of the app ' +
  'on your sandbox business come here instead of the network: `event: ready` first, then one `event: call` per call (its `data:` a RelayCallEvent: ' +
  'the signed headers and body to post to your local URL plus `path`); answer each with POST /developer/apps/{appId}/relay/{callId} within ' +
  '`timeoutMs`, or the call fails as a direct one would. One session per app: a new connection replaces the previous one, which gets ' +
  '`event: replaced` and ends (a client should not reconnect then). A reconnect is sent ' +
  'the calls still awaiting an answer. Production installs are never relayed; without a session, calls go to the network.'

/** /developer/apps/:appId/relay: the listen stream, the answers, and the console's list of relayed calls. */
const relayRoutes: FastifyPluginAsyncTypebox<RelayNeeds & { relay: Relay }> = async (fastify, { apps, guards, relay }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))
  const streams = new Set<ServerResponse>()
  fastify.addHook('preClose', async () => { for (const stream of streams) stream.end() })

  fastify.get('/:appId/relay', {
    schema: {
      tags, security, operationId: 'streamAppRelay', summary: 'Relay my sandbox\'s webhooks and hook calls to my machine (app-platform listen)',
      description: STREAM_DESCRIPTION,
      params: AppIdParams,
      response: {
        200: {
          description: 'A stream of server-sent events; it does not end by itself',
          content: { 'text/event-stream': { schema: { type: 'string', contentMediaType: 'text/event-stream', contentSchema: RelayCallEventSchema, examples: ['event: ready\ndata: {}\n\n'] } } }
        },
        ...errorResponses(400, 401, 403, 404)
      }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const businessId = request.user.businessId
    if (businessId === null) throw badRequest('sandbox_missing', 'Your account has no sandbox business')
    const raw = reply.raw
    let ended = false
    const write = (text: string) => { if (!ended && !raw.writableEnded) raw.write(text) }
    const send = (row: RelayCallRow) => write(`event: call\nid: ${row.id}\ndata: ${JSON.stringify(callEvent(row))}\n\n`)
    let session: RelaySession | null = null
    // one session per app: a newer listen, in any process, ends this stream
    session = await relay.connect(app.id, businessId, send, () => { write('event: replaced\ndata: {}\n\n'); end() })
    const connected = session
    const sessionJti = request.user.jti
    const timers: NodeJS.Timeout[] = []
    const stopWatching = guards.onSessionRevoked((jti) => { if (jti === sessionJti) end() })
    function end (): void {
      if (ended) return
      ended = true
      for (const timer of timers) clearInterval(timer)
      stopWatching()
      streams.delete(raw)
      session?.disconnect().catch((error: unknown) => request.log.warn({ err: error }, 'relay session left behind'))
      if (!raw.writableEnded) raw.end()
    }
    reply.hijack()
    streams.add(raw)
    raw.on('close', end)
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
      connection: 'keep-alive'
    })
    write('retry: 1000\nevent: ready\ndata: {}\n\n')
    for (const row of connected.pending) send(row)
    timers.push(setInterval(() => {
      write(': ping\n\n')
      connected.beat().catch((error: unknown) => request.log.warn({ err: error }, 'relay heartbeat failed'))
    }, HEARTBEAT_MS))
    for (const timer of timers) timer.unref()
    request.log.info({ appId: app.id }, 'relay session connected')
  })

  fastify.post('/:appId/relay/:callId', {
    schema: {
      tags, security, operationId: 'answerRelayedCall', summary: 'The local app\'s answer to a relayed call',
      description: 'The platform treats it exactly as the answer of a direct call. 404 when the call is not this app\'s, was answered already, or its timeout passed.',
      params: RelayCallParams, body: RelayAnswerBodySchema, response: { 204: Type.Null({ description: 'Handed to the waiting call' }), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    if (!await relay.answer(app.id, request.params.callId, request.body)) throw notFound('relayed_call_not_found', 'Waiting relayed call')
    return await reply.code(204).send(null)
  })

  fastify.post('/:appId/trigger', {
    schema: {
      tags, security, operationId: 'triggerSampleEvent', summary: 'Emit a sample event on my sandbox business (app-platform trigger)',
      description: `A sample \`data\` shaped like the platform's own, marked \`sample: true\`, delivered to every webhook subscribed to it on your sandbox (through \`app-platform listen\` while it is connected). Events: ${TRIGGERABLE_EVENTS.join(', ')}.`,
      params: AppIdParams, body: TriggerBodySchema, response: { 202: TriggeredSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    await apps.ownedApp(request.user.sub, request.params.appId)
    const businessId = request.user.businessId
    if (businessId === null) throw badRequest('sandbox_missing', 'Your account has no sandbox business')
    const event = TRIGGERABLE_EVENTS.find((name) => name === request.body.event)
    if (event === undefined) throw badRequest('event_unknown', `Unknown event ${request.body.event}: one of ${TRIGGERABLE_EVENTS.join(', ')}`)
    return await reply.code(202).send(await relay.trigger(businessId, event))
  })

  fastify.get('/:appId/relay-calls', {
    schema: {
      tags, security, operationId: 'listRelayedCalls', summary: 'The app\'s recent relayed calls, newest first',
      params: AppIdParams, response: { 200: Type.Object({ data: Type.Array(RelayedCallSchema) }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const rows = await relay.recent(app.id, LISTED_CALLS)
    return {
      data: rows.map((row) => ({
        id: row.id, kind: row.kind, name: row.name, path: row.path, status: row.answer?.status ?? null,
        createdAt: row.createdAt.toISOString(), answeredAt: row.answeredAt?.toISOString() ?? null
      }))
    }
  })
}

export default relayRoutes
