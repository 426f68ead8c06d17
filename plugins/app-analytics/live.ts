import type { FastifyInstance } from 'fastify'
import type { ServerResponse } from 'node:http'
import { errorResponses } from '../../server/schemas.ts'
import { tooManyRequests } from './errors.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { LiveEventSchema } from './schemas.ts'
import type { Guards } from '../auth/guards.ts'

/** Live tails one developer may hold open at once, over every process's share of them in this one. */
export const MAX_LIVE_PER_DEVELOPER = 5
/** Bytes a slow reader may leave unread before its stream is ended (it reconnects and reloads). */
export const MAX_BUFFERED_BYTES = 256 * 1024
/** A stream is ended after this long; the client reconnects (a session that expired meanwhile no longer can). */
export const MAX_STREAM_MS = 15 * 60_000
const PING_MS = 15_000

interface Options {
  tags: string[]
  security: Array<Record<string, string[]>>
  owned: (developerId: string, appId: string) => Promise<{ id: string }>
  /** What a signed-out session's streams end on (the session guards). */
  onSessionRevoked: Guards['onSessionRevoked']
}

const DESCRIPTION = 'Server-sent events (read it with fetch and the Authorization header): `event: ready` once subscribed, then one ' +
  '`event: delivery` or `event: hookCall` per attempt or call, its `data:` a LiveEvent (JSON); a `: ping` comment every 15 s. ' +
  `At most ${MAX_LIVE_PER_DEVELOPER} open at once per developer (429 beyond); the server ends a stream after 15 minutes or when ` +
  'its reader falls 256 KB behind, and the client reconnects; signing out (POST /auth/logout) ends that session\'s streams.'

/**
 * The stream as a document describes it: text, whose first event is `ready` (data `{}`) and whose
 * later events carry a LiveEvent as `data` (`contentSchema`). A fuzzer reads it as text and can stop
 * after the first event.
 */
const LiveStreamSchema = {
  type: 'string',
  description: 'text/event-stream: `event: ready` with `data: {}` first, then `event: delivery` or `event: hookCall` whose `data:` line is a LiveEvent (JSON), and `: ping` comments',
  examples: ['event: ready\ndata: {}\n\n'],
  'x-sse-events': ['ready', 'delivery', 'hookCall'],
  contentMediaType: 'text/event-stream',
  // JSON Schema's annotation for what the text carries: here, the `data:` of each delivery and hookCall event
  contentSchema: LiveEventSchema
}

/**
 * GET /developer/apps/:appId/live: the app's new delivery attempts and hook calls as server-sent
 * events, from every process (the live-events bus rides on LISTEN/NOTIFY). Authorised like the rest
 * of the portal, by the Authorization header: the console reads it with fetch streaming, not
 * EventSource (docs/decisions.md). Bounded per developer (MAX_LIVE_PER_DEVELOPER, else 429) and per
 * connection (MAX_BUFFERED_BYTES unread, MAX_STREAM_MS).
 */
export function registerLiveTail (fastify: FastifyInstance, options: Options): void {
  const openPerDeveloper = new Map<string, number>()
  const streams = new Set<ServerResponse>()

  // a stream never ends by itself: closing the app ends them, or close would wait for them
  fastify.addHook('preClose', async () => {
    for (const stream of streams) stream.end()
  })

  fastify.get<{ Params: { appId: string } }>('/:appId/live', {
    schema: {
      tags: options.tags,
      security: options.security,
      operationId: 'streamAppLive',
      summary: 'Live tail of my app: delivery attempts and hook calls as they happen',
      description: DESCRIPTION,
      params: AppIdParams,
      response: {
        200: {
          description: 'A stream of server-sent events; it does not end by itself (a client reads the first event, then as long as it likes)',
          content: { 'text/event-stream': { schema: LiveStreamSchema } }
        },
        ...errorResponses(401, 403, 404, 429)
      }
    }
  }, async (request, reply) => {
    const app = await options.owned(request.user.sub, request.params.appId)
    const developer = request.user.sub
    const open = openPerDeveloper.get(developer) ?? 0
    if (open >= MAX_LIVE_PER_DEVELOPER) throw tooManyRequests('live_tail_limit', `At most ${MAX_LIVE_PER_DEVELOPER} live tails may be open at once; close one first`)
    openPerDeveloper.set(developer, open + 1)

    const raw = reply.raw
    const session = request.user.jti
    let ended = false
    let unsubscribe: (() => void) | null = null
    // signing out ends the session's streams too, wherever the logout happened
    const stopWatching = options.onSessionRevoked((jti) => { if (jti === session) end() })
    const timers: NodeJS.Timeout[] = []
    function end (): void {
      if (ended) return
      ended = true
      for (const timer of timers) clearInterval(timer)
      stopWatching()
      unsubscribe?.()
      streams.delete(raw)
      const left = (openPerDeveloper.get(developer) ?? 1) - 1
      if (left <= 0) openPerDeveloper.delete(developer)
      else openPerDeveloper.set(developer, left)
      if (!raw.writableEnded) raw.end()
    }
    function send (text: string): void {
      if (ended) return
      // a reader that stopped reading is let go rather than buffered for without bound
      if (raw.writableLength > MAX_BUFFERED_BYTES) { end(); return }
      raw.write(text)
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
    try {
      unsubscribe = await fastify.liveEvents.subscribe(app.id, (item) => {
        send(`event: ${item.type}\nid: ${item.id}\ndata: ${JSON.stringify(item)}\n\n`)
      })
    } catch (error) {
      request.log.error({ err: error }, 'live tail could not subscribe')
      end()
      return
    }
    if (ended) { unsubscribe(); return }
    send('retry: 2000\nevent: ready\ndata: {}\n\n')
    timers.push(setInterval(() => send(': ping\n\n'), PING_MS))
    timers.push(setTimeout(end, MAX_STREAM_MS))
    for (const timer of timers) timer.unref()
  })
}
