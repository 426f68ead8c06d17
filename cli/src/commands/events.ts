import { setTimeout as sleep } from 'node:timers/promises'
import { AppApiError, readServerSentEvents } from '@app-platform/sdk'
import { CliError, type Context } from '../context.ts'
import { appIdFrom } from '../manifest-file.ts'

/** Wait before reading the live tail again after the server ended it (it does every 15 minutes). */
const RECONNECT_MS = 1000

/** `trigger <event>`: a sample of a catalogue event on the sandbox business. */
export async function trigger (ctx: Context, event: string, options: { app?: string, dir: string }): Promise<void> {
  const triggered = await ctx.client().apps.trigger(appIdFrom(options.app, options.dir), event)
  ctx.out.result(triggered, `Triggered ${triggered.event} (${triggered.eventId}) on your sandbox business ${triggered.businessId}.`)
}

interface LiveItem { type: 'delivery' | 'hookCall', event?: string, hookPoint?: string, status?: string, success?: boolean, statusCode: number | null, error: string | null, durationMs: number, relayed?: boolean, at: string }

/** `logs`: the console's live tail (delivery attempts and hook calls as they happen) until Ctrl-C. */
export async function logs (ctx: Context, options: { app?: string, dir: string }): Promise<void> {
  const appId = appIdFrom(options.app, options.dir)
  const client = ctx.client()
  const stop = new AbortController()
  const onSignal = () => { stop.abort() }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    while (!stop.signal.aborted) {
      try {
        const response = await client.stream(`/developer/apps/${encodeURIComponent(appId)}/live`, undefined, stop.signal)
        for await (const event of readServerSentEvents(response.body as ReadableStream<Uint8Array>)) {
          if (event.event === 'ready') {
            ctx.out.result({ ready: true, appId }, ctx.out.dim(`Tailing ${appId}'s deliveries and hook calls (Ctrl-C to stop)`))
            continue
          }
          const item = JSON.parse(event.data) as LiveItem
          const ok = item.type === 'delivery' ? item.status === 'SUCCEEDED' : item.success === true
          const what = item.type === 'delivery' ? `webhook ${item.event ?? ''}` : `hook    ${item.hookPoint ?? ''}`
          const outcome = `${item.statusCode ?? '---'} ${item.durationMs} ms${item.error === null ? '' : ` ${item.error}`}${item.relayed === true ? ' (relayed)' : ''}`
          ctx.out.result(item, `${item.at.slice(11, 19)}  ${what.padEnd(36)} ${(ok ? ctx.out.green : ctx.out.red)(outcome)}`)
        }
      } catch (error) {
        if (stop.signal.aborted) break
        if (error instanceof AppApiError || error instanceof CliError) throw error
      }
      await sleep(RECONNECT_MS, undefined, { signal: stop.signal }).catch(() => {})
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
