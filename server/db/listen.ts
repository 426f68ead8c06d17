import type pg from 'pg'
import type { FastifyInstance } from 'fastify'

export interface ListenEvents { onLost?: () => void, onRestored?: () => void }
export type Unlisten = () => Promise<void>

/** Delays between attempts to listen again after the connection dropped (the last one repeats). */
const RELISTEN_DELAYS_MS = [100, 500, 1000, 2000, 5000]

/**
 * LISTEN on a node-postgres pool: one dedicated connection per channel. When it drops (server restart,
 * terminated backend) `onLost` is called at once, the channel is listened to again with a backoff, and
 * `onRestored` follows; what was notified in between is lost.
 */
export function createPgListener (pool: pg.Pool) {
  /** Stop functions of the live LISTEN connections, released on close. */
  const listeners = new Set<Unlisten>()

  async function listen (channel: string, onMessage: (payload: string) => void, events: ListenEvents = {}): Promise<Unlisten> {
    const statement = `"${channel.replace(/"/g, '')}"`
    let client: pg.PoolClient | null = null
    let stopped = false
    let retry: NodeJS.Timeout | null = null

    const onNotification = (message: pg.Notification) => { if (message.channel === channel) onMessage(message.payload ?? '') }
    const onError = function (this: pg.PoolClient) { lost(this) }

    /** The connection goes back to the pool, where another listener may take it: our handlers must not stay on it. */
    function release (connection: pg.PoolClient, destroy: boolean): void {
      connection.off('notification', onNotification)
      connection.off('error', onError)
      connection.release(destroy)
    }

    async function connect (): Promise<pg.PoolClient> {
      const connection = await pool.connect()
      connection.on('notification', onNotification)
      // a checked-out client's error would otherwise be an unhandled 'error' event
      connection.on('error', onError)
      try {
        await connection.query(`listen ${statement}`)
      } catch (error) {
        release(connection, true)
        throw error
      }
      return connection
    }

    function lost (connection: pg.PoolClient): void {
      if (client !== connection) return
      client = null
      release(connection, true)
      if (stopped) return
      events.onLost?.()
      relisten(0)
    }

    function relisten (attempt: number): void {
      retry = setTimeout(() => {
        retry = null
        connect().then((connection) => {
          if (stopped) { release(connection, true); return }
          client = connection
          events.onRestored?.()
        }, () => { if (!stopped) relisten(attempt + 1) })
      }, RELISTEN_DELAYS_MS[Math.min(attempt, RELISTEN_DELAYS_MS.length - 1)])
      retry.unref()
    }

    async function stop (): Promise<void> {
      if (stopped) return
      stopped = true
      listeners.delete(stop)
      if (retry !== null) clearTimeout(retry)
      const connection = client
      client = null
      if (connection === null) return
      await connection.query(`unlisten ${statement}`).catch(() => {})
      release(connection, false)
    }

    client = await connect()
    listeners.add(stop)
    return stop
  }

  async function stopAll (): Promise<void> {
    await Promise.all([...listeners].map(async (stop) => { await stop() }))
  }

  return { listen, stopAll }
}

/**
 * Keeps a process-local cache coherent with the other processes: `onMessage` gets each NOTIFY on
 * `channel`, and the cache is switched off (and emptied) while the LISTEN connection is down, since
 * what other processes notify meanwhile is lost. Unlistens when the app closes.
 */
export async function listenForCache (fastify: FastifyInstance, channel: string, name: string,
  cache: { setEnabled: (on: boolean) => void }, onMessage: (payload: string) => void): Promise<void> {
  const unlisten = await fastify.database.listen(channel, onMessage, {
    onLost: () => {
      fastify.log.warn(`LISTEN connection lost: the ${name} is off until it is back`)
      cache.setEnabled(false)
    },
    onRestored: () => {
      fastify.log.info(`LISTEN connection restored: the ${name} is on again`)
      cache.setEnabled(true)
    }
  })
  fastify.addHook('onClose', async () => { await unlisten().catch(() => {}) })
}
