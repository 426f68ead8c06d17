import { setTimeout as sleep } from 'node:timers/promises'
import { AppApiError, readServerSentEvents, type DeveloperClient, type RelayAnswer } from '@app-platform/sdk'
import { CliError, type Context } from '../context.ts'
import { appIdFrom } from '../manifest-file.ts'

/** Waits between reconnects, growing to the last one while the platform stays away. */
const RECONNECT_MS = [250, 500, 1000, 2000, 5000]
/** Headers not passed on to the local app: the connection's own. */
const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive'])

interface RelayCall { callId: string, kind: 'webhook' | 'hook', name: string, path: string, headers: Record<string, string>, body: string, timeoutMs: number }

/**
 * The local URL a call goes to: the --forward-to origin plus the path production would call (DESIGN §22):
 * a registration's URL path, the app's webhook URL path, or that path plus the hook's.
 */
export function localUrl (origin: string, call: Pick<RelayCall, 'path'>): string {
  return `${origin}${call.path.startsWith('/') ? call.path : `/${call.path}`}`
}

/** Posts one call to the local app, signed as the platform signed it, and returns what it answered (502 when it could not be reached). */
async function forward (origin: string, call: RelayCall, stop: AbortSignal): Promise<RelayAnswer & { error?: string }> {
  const headers = Object.fromEntries(Object.entries(call.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())))
  try {
    const response = await fetch(localUrl(origin, call), {
      method: 'POST', headers, body: call.body, redirect: 'manual', signal: AbortSignal.any([stop, AbortSignal.timeout(call.timeoutMs)])
    })
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name
    return { status: 502, headers: { 'content-type': 'text/plain' }, body: `app-platform listen could not reach ${localUrl(origin, call)}: ${cause}`, error: cause }
  }
}

/**
 * `listen`: holds the app's relay stream; each webhook delivery and hook call of the sandbox install
 * is posted to the local app (the --forward-to origin plus the production URL's path) and its answer
 * sent back. Reconnects when the stream drops (the calls still awaited are sent again). SIGINT and
 * SIGTERM end it at once: the stream's reader is cancelled (fetch's own signal does not reach a body
 * once the request object was garbage-collected, which relaying soon causes) and every call still
 * waiting on the local app is aborted.
 */
export async function listen (ctx: Context, options: { app?: string, dir: string, forwardTo: string }): Promise<void> {
  let origin: string
  try {
    const url = new URL(options.forwardTo)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
    origin = url.origin
  } catch {
    throw new CliError(`--forward-to must be an http(s) URL, like http://localhost:8787 (got ${options.forwardTo})`, { exitCode: 2 })
  }
  const appId = appIdFrom(options.app, options.dir)
  const client = ctx.client()
  const stop = new AbortController()
  const onSignal = () => { stop.abort() }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  let lastEventId: string | undefined
  let takenOver = false
  let failures = 0
  try {
    while (!stop.signal.aborted) {
      try {
        const response = await client.stream(`/developer/apps/${encodeURIComponent(appId)}/relay`, lastEventId, stop.signal)
        failures = 0
        for await (const event of readServerSentEvents(response.body as ReadableStream<Uint8Array>, stop.signal)) {
          if (event.event === 'ready') {
            ctx.out.result({ ready: true, appId, forwardTo: origin }, `Ready: relaying ${appId}'s sandbox webhooks and hook calls to ${origin} plus their production paths (Ctrl-C to stop)`)
          } else if (event.event === 'replaced') {
            takenOver = true
            break
          } else if (event.event === 'call') {
            lastEventId = event.id
            void relayOne(ctx, client, appId, origin, JSON.parse(event.data) as RelayCall, stop.signal)
          }
        }
      } catch (error) {
        if (stop.signal.aborted) break
        if (error instanceof AppApiError && error.statusCode !== 429 && error.statusCode < 500) throw error
        if (error instanceof CliError && failures >= RECONNECT_MS.length) throw error
      }
      // reconnecting would take the session back: the two would pass it to and fro
      if (takenOver) throw new CliError('Another `app-platform listen` for this app took over; this one stops')
      if (stop.signal.aborted) break
      const wait = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)] ?? 1000
      failures++
      ctx.out.note(ctx.out.dim(`Connection to ${ctx.server} lost; reconnecting in ${wait} ms`))
      await sleep(wait, undefined, { signal: stop.signal }).catch(() => {})
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  if (stop.signal.aborted) ctx.out.note(ctx.out.dim('Stopped.'))
}

async function relayOne (ctx: Context, client: DeveloperClient, appId: string, origin: string, call: RelayCall, stop: AbortSignal): Promise<void> {
  const started = performance.now()
  const { error, ...answer } = await forward(origin, call, stop)
  // stopped meanwhile: the platform times the call out on its own; answering would only hold the process up
  if (stop.aborted) return
  const durationMs = Math.round(performance.now() - started)
  try {
    await client.apps.relayAnswer(appId, call.callId, answer)
  } catch (failure) {
    ctx.out.note(ctx.out.red(`${call.kind} ${call.name}: the answer was not taken (${(failure as Error).message})`))
    return
  }
  const colour = answer.status >= 200 && answer.status < 300 ? ctx.out.green : ctx.out.red
  ctx.out.result(
    { callId: call.callId, kind: call.kind, name: call.name, url: localUrl(origin, call), status: answer.status, durationMs, error: error ?? null },
    `${new Date().toISOString().slice(11, 19)}  ${call.kind.padEnd(7)} ${call.name.padEnd(28)} → ${localUrl(origin, call)}  ${colour(String(answer.status))} ${durationMs} ms`
  )
}
