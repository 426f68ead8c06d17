import { setTimeout as sleep } from 'node:timers/promises'
import { AppApiError, readServerSentEvents, type DeveloperClient, type RelayAnswer } from '@app-platform/sdk'
import { CliError, type Context } from '../context.ts'
import { appIdFrom } from '../manifest-file.ts'

/** Waits between reconnects, growing to the last one while the platform stays away. */
const RECONNECT_MS = [250, 500, 1000, 2000, 5000]
/** Headers not passed on to the local app: the connection's own. */
const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive'])

interface RelayCall { callId: string, kind: 'webhook' | 'hook', name: string, path: string, headers: Record<string, string>, body: string, timeoutMs: number }

/** The local URL a call goes to: the --forward-to URL itself for a webhook, plus the hook's path for a hook. */
export function localUrl (forwardTo: string, call: Pick<RelayCall, 'kind' | 'path'>): string {
  return call.kind === 'hook' ? `${forwardTo.replace(/\/+$/, '')}${call.path}` : forwardTo
}

/** Posts one call to the local app, signed as the platform signed it, and returns what it answered (502 when it could not be reached). */
async function forward (forwardTo: string, call: RelayCall): Promise<RelayAnswer & { error?: string }> {
  const headers = Object.fromEntries(Object.entries(call.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())))
  try {
    const response = await fetch(localUrl(forwardTo, call), {
      method: 'POST', headers, body: call.body, redirect: 'manual', signal: AbortSignal.timeout(call.timeoutMs)
    })
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name
    return { status: 502, headers: { 'content-type': 'text/plain' }, body: `app-platform listen could not reach ${localUrl(forwardTo, call)}: ${cause}`, error: cause }
  }
}

/**
 * `listen`: holds the app's relay stream; each webhook delivery and hook call of the sandbox install
 * is posted to the local app and its answer sent back. Reconnects when the stream drops (the calls
 * still awaited are sent again); ends on Ctrl-C.
 */
export async function listen (ctx: Context, options: { app?: string, dir: string, forwardTo: string }): Promise<void> {
  let forwardTo: string
  try {
    const url = new URL(options.forwardTo)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
    forwardTo = url.pathname === '/' && url.search === '' ? url.origin : url.toString()
  } catch {
    throw new CliError(`--forward-to must be an http(s) URL, like http://localhost:3002/webhooks (got ${options.forwardTo})`, { exitCode: 2 })
  }
  const appId = appIdFrom(options.app, options.dir)
  const client = ctx.client()
  const stop = new AbortController()
  const onSignal = () => { stop.abort() }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  let lastEventId: string | undefined
  let takenOver = false
  let failures = 0
  try {
    while (!stop.signal.aborted) {
      try {
        const response = await client.stream(`/developer/apps/${encodeURIComponent(appId)}/relay`, lastEventId, stop.signal)
        failures = 0
        for await (const event of readServerSentEvents(response.body as ReadableStream<Uint8Array>)) {
          if (event.event === 'ready') {
            ctx.out.result({ ready: true, appId, forwardTo }, `Ready: relaying ${appId}'s sandbox webhooks and hook calls to ${forwardTo} (Ctrl-C to stop)`)
          } else if (event.event === 'replaced') {
            takenOver = true
            break
          } else if (event.event === 'call') {
            lastEventId = event.id
            void relayOne(ctx, client, appId, forwardTo, JSON.parse(event.data) as RelayCall)
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
}

async function relayOne (ctx: Context, client: DeveloperClient, appId: string, forwardTo: string, call: RelayCall): Promise<void> {
  const started = performance.now()
  const { error, ...answer } = await forward(forwardTo, call)
  const durationMs = Math.round(performance.now() - started)
  try {
    await client.apps.relayAnswer(appId, call.callId, answer)
  } catch (failure) {
    ctx.out.note(ctx.out.red(`${call.kind} ${call.name}: the answer was not taken (${(failure as Error).message})`))
    return
  }
  const colour = answer.status >= 200 && answer.status < 300 ? ctx.out.green : ctx.out.red
  ctx.out.result(
    { callId: call.callId, kind: call.kind, name: call.name, url: localUrl(forwardTo, call), status: answer.status, durationMs, error: error ?? null },
    `${new Date().toISOString().slice(11, 19)}  ${call.kind.padEnd(7)} ${call.name.padEnd(28)} → ${localUrl(forwardTo, call)}  ${colour(String(answer.status))} ${durationMs} ms`
  )
}
