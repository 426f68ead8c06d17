import type { Browser, Route } from 'playwright-core'
import { request } from 'undici'
import { outboundUrlProblem } from '../../../server/url-policy.ts'
import { EVIDENCE_BYTES } from '../http.ts'
import type { AdminPageDefinition, CheckContext } from '../context.ts'
import { fail, pass, skip, type Check, type Verdict } from '../runner.ts'
import type { Evidence } from '../schemas.ts'

/** DESIGN §14: the admin shows an error state when a page neither sends service:ready nor loads within 5 s. */
export const BRIDGE_WAIT_MS = 5000
/** Starting Chromium, on top of the wait. */
const LAUNCH_MS = 10_000
/** The host page, served by the check itself at the admin origin (the browser never reaches the platform for it). */
const HOST_PATH = '/__app-checks/admin-page-host'
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const DROPPED_REQUEST_HEADERS = new Set(['host', 'content-length', 'connection'])

const script = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** The admin panel's side of the bridge (DESIGN §14), in one page: frame, listen, init, answer token requests. */
function hostPage (src: string, init: Record<string, unknown>): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>App check host</title></head><body style="margin:0">
<iframe id="frame" title="Admin page" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" sandbox="allow-scripts allow-same-origin allow-forms allow-popups" style="width:100%;height:640px;border:0"></iframe>
<script>
window.__bridge = { ready: false, loaded: false }
const frame = document.getElementById('frame')
const origin = new URL(frame.src).origin
const init = ${script(init)}
addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== origin || event.data === null || typeof event.data !== 'object') return
  if (event.data.type === 'service:ready') window.__bridge.ready = true
  if (event.data.type === 'service:session-token-request') frame.contentWindow.postMessage({ type: 'service:session-token', sessionToken: init.sessionToken }, origin)
})
frame.addEventListener('load', () => { window.__bridge.loaded = true; frame.contentWindow.postMessage(init, origin) })
</script></body></html>`
}

/**
 * Every request of the page goes through the platform's outbound URL policy: a refused one is aborted,
 * the others are made by the platform's own HTTP client (the address checked and pinned in production)
 * and handed to the browser, so the page cannot reach what a webhook could not.
 */
async function forward (route: Route, context: CheckContext, refused: string[], seen: Map<string, Evidence>): Promise<void> {
  const outgoing = route.request()
  const url = outgoing.url()
  const problem = /^https?:/.test(url) ? await outboundUrlProblem(url, context.policy) : 'not an http(s) URL'
  if (problem !== null) {
    refused.push(`${url}: ${problem}`)
    await route.abort('blockedbyclient')
    return
  }
  const started = performance.now()
  try {
    const headers = Object.fromEntries(Object.entries(await outgoing.allHeaders()).filter(([name]) => !DROPPED_REQUEST_HEADERS.has(name) && !name.startsWith(':')))
    const response = await request(url, {
      method: outgoing.method() as 'GET', headers, body: outgoing.postDataBuffer() ?? undefined, dispatcher: context.dispatcher,
      signal: AbortSignal.timeout(BRIDGE_WAIT_MS), headersTimeout: BRIDGE_WAIT_MS, bodyTimeout: BRIDGE_WAIT_MS
    })
    const body = Buffer.from(await response.body.arrayBuffer())
    const answered = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]))
    if (!seen.has(url)) {
      seen.set(url, {
        request: `${outgoing.method()} ${url} (in headless Chromium)`, status: response.statusCode, headers: answered,
        body: body.subarray(0, EVIDENCE_BYTES).toString('utf8'), durationMs: Math.round(performance.now() - started), at: context.clock.now().toISOString()
      })
    }
    await route.fulfill({ status: response.statusCode, headers: answered, body })
  } catch {
    await route.abort('failed').catch(() => {})
  }
}

function bridgeCheck (context: CheckContext, page: AdminPageDefinition): Check<CheckContext> {
  return {
    id: `admin_pages.${page.pageId}.bridge`,
    title: `Admin page ${page.pageId} sends service:ready or renders within 5 s`,
    timeoutMs: BRIDGE_WAIT_MS + LAUNCH_MS,
    run: async (): Promise<Verdict> => {
      if (context.browserPath === null) return skip('No browser is configured on this server (CHECKS_BROWSER_PATH)')
      const src = new URL(page.renderUrl)
      src.searchParams.set('businessId', context.business.id)
      src.searchParams.set('locale', context.business.locale)
      const refusedTop = await outboundUrlProblem(src.toString(), context.policy)
      if (refusedTop !== null) return fail(`Refused by the outbound URL policy: ${refusedTop}`, 'Serve the admin page from a public https address.')
      const init = {
        type: 'service:init', businessId: context.business.id, businessName: context.business.name, role: 'OWNER', locale: context.business.locale,
        sessionToken: await context.sessionToken()
      }
      const hostUrl = `${context.adminOrigin}${HOST_PATH}`
      let browser: Browser | null = null
      try {
        // loaded on first use: most servers have no browser configured, and it is a large module to load at start-up
        const { chromium } = await import('playwright-core')
        browser = await chromium.launch({ executablePath: context.browserPath, headless: true, timeout: LAUNCH_MS, args: CHROMIUM_ARGS })
        const tab = await browser.newPage()
        const refused: string[] = []
        const seen = new Map<string, Evidence>()
        await tab.route('**/*', async (route) => {
          if (route.request().url() === hostUrl) await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: hostPage(src.toString(), init) })
          else await forward(route, context, refused, seen)
        })
        const until = performance.now() + BRIDGE_WAIT_MS
        await tab.goto(hostUrl, { waitUntil: 'domcontentloaded', timeout: BRIDGE_WAIT_MS })
        const left = () => ({ timeout: Math.max(1, until - performance.now()) })
        const waited = await tab.waitForFunction(() => (window as unknown as { __bridge: { ready: boolean } }).__bridge.ready, undefined, left())
          .then(() => true, () => false)
        const state = await tab.evaluate(() => (window as unknown as { __bridge: { ready: boolean, loaded: boolean } }).__bridge)
        const frame = tab.frames().find((f) => f !== tab.mainFrame())
        // let what the page started on load finish within the window (its backend's App API calls count as scope uses)
        if (frame !== undefined) await frame.waitForLoadState('networkidle', left()).catch(() => {})
        const errored = frame === undefined || frame.url().startsWith('chrome-error:')
        const rendered = !errored && state.loaded && await (frame?.evaluate(() => (document.body?.innerText ?? '').trim().length > 0 || (document.body?.children.length ?? 0) > 0).catch(() => false) ?? false)
        // the first request the page made is its own document
        const shown = [...seen.values()].slice(0, 1)
        const blocked = refused.length > 0 ? ` (${refused.length} request(s) refused by the outbound URL policy: ${refused.slice(0, 3).join('; ')})` : ''
        if (waited || state.ready) return pass(`The page sent service:ready${blocked}`, shown)
        if (rendered) return pass(`The page rendered within 5 s without sending service:ready (the admin shows it anyway)${blocked}`, shown)
        return fail(errored
          ? `The admin could not show the page: the frame was refused or failed to load${blocked}`
          : `Neither service:ready nor a rendered page within 5 s${blocked}`,
        'Load fast and post service:ready to the admin origin once the page is usable (the SDK\'s adminBridge does it).', shown)
      } finally {
        await browser?.close().catch(() => {})
      }
    }
  }
}

export function bridgeChecks (context: CheckContext): Array<Check<CheckContext>> {
  return context.extensions.adminPages.map((page) => bridgeCheck(context, page))
}
