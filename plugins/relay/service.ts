import type { FastifyInstance } from 'fastify'
import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm'
import { relayCalls, relaySessions, type RelayAnswerRecord } from '../../server/db/schema/index.ts'
import type { Db } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { emitEvent, type EventName } from '../../server/events.ts'
import { sampleData } from './samples.ts'
import type { Clock } from '../../server/clock.ts'

/** NOTIFY channels: a call for an app's session, an answer for the waiting caller, a session that came or went. */
export const RELAY_CALL_CHANNEL = 'relay_call'
export const RELAY_ANSWER_CHANNEL = 'relay_answer'
export const RELAY_PRESENCE_CHANNEL = 'relay_presence'
/** A session whose stream has not beaten this long is gone (its process died): calls go to the network again. */
export const SESSION_STALE_MS = 30_000
/** How often a connected stream renews its session. */
export const HEARTBEAT_MS = 10_000
/** What a process remembers about an app's session before asking the table again (a connect or disconnect clears it at once). */
const PRESENCE_CACHE_MS = 5_000
/** Relayed calls kept for the console's list. */
const KEPT_CALLS = 200

export interface RelayRequest {
  appId: string
  businessId: string
  kind: 'webhook' | 'hook'
  /** The event or the hook point. */
  name: string
  /** The URL the call would go to in production; the CLI is given its path (relayPath) and posts to its --forward-to origin plus it. */
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

/** A URL's path and query: what a relayed call keeps of the production URL (DESIGN §22), so the local app sees the same paths. */
export function relayPath (url: string): string {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

/** The answer as the local app gave it, or `timeout` when none came within the call's timeout. */
export type RelayOutcome = { answered: true, answer: RelayAnswerRecord, durationMs: number } | { answered: false, durationMs: number }

export type RelayCallRow = typeof relayCalls.$inferSelect

/** A connected stream's hold on the app's session: the calls it missed, its heartbeat, its end. */
export interface RelaySession { sessionId: string, pending: RelayCallRow[], beat: () => Promise<void>, disconnect: () => Promise<void> }

/** What a listen stream receives for each call. */
export function callEvent (row: RelayCallRow) {
  return {
    callId: row.id, kind: row.kind, name: row.name, path: row.path, headers: row.headers, body: row.body, timeoutMs: row.timeoutMs,
    deadlineAt: row.deadlineAt.toISOString()
  }
}

/**
 * The local relay (DESIGN §19): while a developer's `listen` session is connected, the calls of their
 * app on their sandbox business go to it instead of the network. Sessions, calls and answers live in
 * tables and travel by NOTIFY, so the stream may be held by one process and the call made by another.
 */
export function createRelay (deps: {
  db: Db
  notify: (channel: string, payload: string) => Promise<void>
  listen: (channel: string, onMessage: (payload: string) => void) => Promise<() => Promise<void>>
  onError: (error: unknown) => void
  clock: Clock
}) {
  const { db } = deps
  const now = (): number => deps.clock.nowMs()
  const presence = new Map<string, { businessId: string | null, until: number }>()
  const waiting = new Map<string, (answer: RelayAnswerRecord | null) => void>()
  /** This process's streams by app and session: a newer session of the app, here or elsewhere, ends the older ones. */
  const streams = new Map<string, Map<string, { send: (row: RelayCallRow) => void, replaced: () => void }>>()
  const unlisten: Array<() => Promise<void>> = []
  let started: Promise<void> | null = null

  async function loadCall (id: string): Promise<RelayCallRow | null> {
    const [row] = await db.select().from(relayCalls).where(eq(relayCalls.id, id)).limit(1)
    return row ?? null
  }

  /** LISTENs on the three channels, once per process, on first use. */
  function start (): Promise<void> {
    started ??= (async () => {
      unlisten.push(await deps.listen(RELAY_PRESENCE_CHANNEL, (payload) => {
        // `<appId> <sessionId>` when a session connects (older ones end), `<appId>` when one leaves
        const [appId = '', sessionId] = payload.split(' ')
        presence.delete(appId)
        if (sessionId === undefined) return
        for (const [id, stream] of streams.get(appId) ?? []) if (id !== sessionId) stream.replaced()
      }))
      unlisten.push(await deps.listen(RELAY_ANSWER_CHANNEL, (callId) => {
        const resolve = waiting.get(callId)
        if (resolve === undefined) return
        loadCall(callId).then((row) => { if (row?.answer != null) resolve(row.answer) }, deps.onError)
      }))
      unlisten.push(await deps.listen(RELAY_CALL_CHANNEL, (payload) => {
        const [appId, callId] = payload.split(' ')
        const subscribers = streams.get(appId ?? '')
        if (subscribers === undefined || callId === undefined) return
        loadCall(callId).then((row) => { if (row !== null) for (const stream of subscribers.values()) stream.send(row) }, deps.onError)
      }))
    })()
    return started
  }

  /** The sandbox business of the app's live session, or null; cached briefly, cleared by NOTIFY when a session comes or goes. */
  async function sessionBusiness (appId: string): Promise<string | null> {
    const cached = presence.get(appId)
    if (cached !== undefined && cached.until > now()) return cached.businessId
    await start()
    const [row] = await db.select({ businessId: relaySessions.businessId }).from(relaySessions)
      .where(and(eq(relaySessions.appId, appId), gt(relaySessions.heartbeatAt, new Date(now() - SESSION_STALE_MS)))).limit(1)
    const businessId = row?.businessId ?? null
    presence.set(appId, { businessId, until: now() + PRESENCE_CACHE_MS })
    return businessId
  }

  return {
    /**
     * Relays one call when the app has a live session for this business; null otherwise (the caller
     * uses the network, as without a relay). Waits at most the call's timeout for the answer.
     */
    async call (request: RelayRequest): Promise<RelayOutcome | null> {
      if (await sessionBusiness(request.appId) !== request.businessId) return null
      const started = performance.now()
      const id = newId('rly')
      const createdAt = new Date(now())
      const answered = new Promise<RelayAnswerRecord | null>((resolve) => {
        waiting.set(id, resolve)
        setTimeout(() => resolve(null), request.timeoutMs).unref()
      })
      try {
        const { url, ...call } = request
        await db.insert(relayCalls).values({ id, ...call, path: relayPath(url), createdAt, deadlineAt: new Date(createdAt.getTime() + request.timeoutMs) })
        await deps.notify(RELAY_CALL_CHANNEL, `${request.appId} ${id}`)
        const answer = await answered
        const durationMs = Math.round(performance.now() - started)
        return answer === null ? { answered: false, durationMs } : { answered: true, answer, durationMs }
      } finally {
        waiting.delete(id)
      }
    },

    /** A listen stream connects: it becomes the app's session (a newer one replaces it) and gets the calls still waiting. */
    async connect (appId: string, businessId: string, send: (row: RelayCallRow) => void, replaced: () => void = () => {}): Promise<RelaySession> {
      await start()
      const sessionId = newId('rls')
      const at = new Date(now())
      await db.insert(relaySessions).values({ appId, sessionId, businessId, connectedAt: at, heartbeatAt: at })
        .onConflictDoUpdate({ target: relaySessions.appId, set: { sessionId, businessId, connectedAt: at, heartbeatAt: at } })
      let mine = streams.get(appId)
      if (mine === undefined) streams.set(appId, mine = new Map())
      mine.set(sessionId, { send, replaced })
      presence.delete(appId)
      await deps.notify(RELAY_PRESENCE_CHANNEL, `${appId} ${sessionId}`)
      // a reconnect resumes: what was handed over meanwhile and is still awaited is sent again
      const pending = await db.select().from(relayCalls)
        .where(and(eq(relayCalls.appId, appId), isNull(relayCalls.answeredAt), gt(relayCalls.deadlineAt, new Date(now()))))
        .orderBy(relayCalls.createdAt)
      return {
        sessionId,
        pending,
        beat: async () => {
          await db.update(relaySessions).set({ heartbeatAt: new Date(now()) })
            .where(and(eq(relaySessions.appId, appId), eq(relaySessions.sessionId, sessionId)))
        },
        disconnect: async () => {
          mine.delete(sessionId)
          if (mine.size === 0) streams.delete(appId)
          await db.delete(relaySessions).where(and(eq(relaySessions.appId, appId), eq(relaySessions.sessionId, sessionId)))
          presence.delete(appId)
          await deps.notify(RELAY_PRESENCE_CHANNEL, appId)
        }
      }
    },

    /** The local app's answer to a call of this app; false when there is no such call waiting (answered, expired, another app's). */
    async answer (appId: string, callId: string, answer: RelayAnswerRecord): Promise<boolean> {
      const [row] = await db.update(relayCalls).set({ answer, answeredAt: new Date(now()) })
        .where(and(eq(relayCalls.id, callId), eq(relayCalls.appId, appId), isNull(relayCalls.answeredAt), gt(relayCalls.deadlineAt, new Date(now()))))
        .returning({ id: relayCalls.id })
      if (row === undefined) return false
      await deps.notify(RELAY_ANSWER_CHANNEL, callId)
      return true
    },

    /** The app's recent relayed calls, newest first, for the console; older ones are pruned. */
    async recent (appId: string, limit: number) {
      const rows = await db.select().from(relayCalls).where(eq(relayCalls.appId, appId)).orderBy(desc(relayCalls.createdAt)).limit(limit)
      const oldest = rows.length >= KEPT_CALLS ? rows[rows.length - 1] : undefined
      if (oldest !== undefined) await db.delete(relayCalls).where(and(eq(relayCalls.appId, appId), lt(relayCalls.createdAt, oldest.createdAt)))
      return rows
    },

    /** `app-platform trigger`: a sample of a catalogue event on the sandbox, delivered like a real one (to the listen session if connected). */
    async trigger (businessId: string, event: EventName) {
      const data = sampleData(event, new Date(now()))
      const eventId = await emitEvent(db, { businessId, event, data })
      return { event, eventId, businessId, data }
    },

    async close (): Promise<void> {
      for (const stop of unlisten.splice(0)) await stop().catch(() => {})
      for (const resolve of waiting.values()) resolve(null)
    }
  }
}

export type Relay = ReturnType<typeof createRelay>

/** The relay over this process's database and its notifications, closed with the app. */
export function startRelay (fastify: FastifyInstance): Relay {
  const relay = createRelay({
    db: fastify.db,
    notify: fastify.database.notify,
    listen: async (channel, onMessage) => await fastify.database.listen(channel, onMessage),
    onError: (error) => fastify.log.warn({ err: error }, 'relay hand-over failed'),
    clock: fastify.clock
  })
  fastify.addHook('onClose', async () => { await relay.close() })
  return relay
}
