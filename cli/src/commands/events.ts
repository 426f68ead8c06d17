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

interface LiveItem { type: 'delivery' | 'hookCall', id: string, event?: string, hookPoint?: string, status?: string, success?: boolean, statusCode: number | null, error: string | null, durationMs: number, relayed?: boolean, at: string }

/** The console's lists read per page for `logs --since`: its largest page. */
const HISTORY_PAGE = 100
const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `--since 15m`: a duration in seconds, minutes, hours or days, as milliseconds. */
export function parseDuration (text: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(text.trim())
  if (match === null) throw new CliError(`--since takes a duration like 30s, 15m, 2h or 1d (got ${text})`, { exitCode: 2 })
  return Number(match[1]) * (DURATION_UNITS_MS[match[2] as string] ?? 0)
}

interface DeliveryRow {
  id: string, event: string, status: string, lastStatusCode: number | null, lastError: string | null, lastDurationMs: number | null, createdAt: string
}
interface HookCallRow {
  id: string, hookPoint: string, success: boolean, statusCode: number | null, error: string | null, durationMs: number, relayed: boolean, createdAt: string
}

/** The console's deliveries and hook calls since `from`, oldest first, in the live tail's shape. */
async function history (ctx: Context, appId: string, from: Date): Promise<LiveItem[]> {
  const client = ctx.client()
  const app = `/developer/apps/${encodeURIComponent(appId)}`
  const [deliveries, calls] = await Promise.all([
    client.request<{ data: DeliveryRow[] }>('GET', `${app}/deliveries?limit=${HISTORY_PAGE}&from=${encodeURIComponent(from.toISOString())}`),
    // the hook call log has no time filter: its newest page, cut at `from`
    client.request<{ data: HookCallRow[] }>('GET', `${app}/hook-calls?limit=${HISTORY_PAGE}`)
  ])
  const items: LiveItem[] = [
    ...deliveries.data.map((row): LiveItem => ({
      type: 'delivery', id: row.id, event: row.event, status: row.status, statusCode: row.lastStatusCode, error: row.lastError, durationMs: row.lastDurationMs ?? 0, at: row.createdAt
    })),
    ...calls.data.filter((row) => Date.parse(row.createdAt) >= from.getTime()).map((row): LiveItem => ({
      type: 'hookCall', id: row.id, hookPoint: row.hookPoint, success: row.success, statusCode: row.statusCode, error: row.error, durationMs: row.durationMs, relayed: row.relayed, at: row.createdAt
    }))
  ]
  return items.sort((a, b) => a.at.localeCompare(b.at))
}

function printItem (ctx: Context, item: LiveItem & { history?: boolean }): void {
  const ok = item.type === 'delivery' ? item.status === 'SUCCEEDED' : item.success === true
  const what = item.type === 'delivery' ? `webhook ${item.event ?? ''}` : `hook    ${item.hookPoint ?? ''}`
  const outcome = `${item.statusCode ?? '---'} ${item.durationMs} ms${item.error === null ? '' : ` ${item.error}`}${item.relayed === true ? ' (relayed)' : ''}`
  ctx.out.result(item, `${item.at.slice(11, 19)}  ${what.padEnd(36)} ${(ok ? ctx.out.green : ctx.out.red)(outcome)}`)
}

/**
 * `logs`: the console's live tail (delivery attempts and hook calls as they happen) until Ctrl-C; with
 * `--since <duration>`, the deliveries and hook calls of that last while first. The tail is opened
 * before the history is read, so nothing falls between the two.
 */
export async function logs (ctx: Context, options: { app?: string, dir: string, since?: string }): Promise<void> {
  const since = options.since === undefined ? null : parseDuration(options.since)
  const appId = appIdFrom(options.app, options.dir)
  const client = ctx.client()
  const stop = new AbortController()
  const onSignal = () => { stop.abort() }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  let historyShown = since === null
  const shown = new Set<string>()
  try {
    while (!stop.signal.aborted) {
      try {
        const response = await client.stream(`/developer/apps/${encodeURIComponent(appId)}/live`, undefined, stop.signal)
        for await (const event of readServerSentEvents(response.body as ReadableStream<Uint8Array>, stop.signal)) {
          if (event.event === 'ready') {
            if (!historyShown && since !== null) {
              for (const item of await history(ctx, appId, new Date(Date.now() - since))) {
                shown.add(item.id)
                printItem(ctx, { ...item, history: true })
              }
              historyShown = true
            }
            ctx.out.result({ ready: true, appId }, ctx.out.dim(`Tailing ${appId}'s deliveries and hook calls (Ctrl-C to stop)`))
            continue
          }
          const item = JSON.parse(event.data) as LiveItem
          // a hook call printed from the history may come again live (the log is written in groups); a delivery's later attempts are new lines
          if (item.type === 'hookCall' && shown.has(item.id)) continue
          printItem(ctx, item)
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
