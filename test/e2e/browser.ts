import { mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { deflateSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import type { Test } from 'tap'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const SCREENSHOTS = fileURLToPath(new URL('./.screenshots/', import.meta.url))
/**
 * E2E_SLOW_FETCH_MS: every fetch a page makes waits this long first. A test that passes only because an answer
 * came quickly (it checked the screen before the screen had changed) fails under it; CI leaves it at 0.
 */
const SLOW_FETCH_MS = Number(process.env.E2E_SLOW_FETCH_MS ?? 0)

/** Debian's chromium, headless, with the flags this network-less machine needs; closed on teardown. */
export async function launch (t: Test): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
  // A page or browser that goes away under a test fails it with only "Target page, context or browser has
  // been closed": say on stderr what went, and under which test, so such a failure can be traced.
  let closing = false
  browser.on('disconnected', () => { if (!closing) process.stderr.write(`chromium disconnected under "${t.fullname}" before the test closed it\n`) })
  const newPage = browser.newPage.bind(browser)
  browser.newPage = async (...args) => {
    const page = await newPage(...args)
    page.on('crash', () => process.stderr.write(`a page crashed under "${t.fullname}": ${page.url()}\n`))
    if (SLOW_FETCH_MS > 0) {
      // a late answer, like a slow receiver's: a callback timer, not a wait
      await page.route('**/*', (route) => {
        const go = () => { route.fallback().catch(() => {}) }
        if (['fetch', 'xhr'].includes(route.request().resourceType())) setTimeout(go, SLOW_FETCH_MS)
        else go()
      })
    }
    return page
  }
  t.teardown(async () => { closing = true; await browser.close() })
  return browser
}

/**
 * Waits for a locator inside a frame that a reload replaces (a preview's frame element is swapped for a new one).
 * A cross-origin frame runs in a process of its own; when the element goes while Playwright waits inside it,
 * Playwright reports "Target page, context or browser has been closed" instead of looking again, so this looks
 * again, for as long as the page itself is open, until its own deadline.
 */
export async function waitThroughReloads (locator: Locator, timeout = 30_000): Promise<void> {
  const page = locator.page()
  const deadline = Date.now() + timeout
  for (;;) {
    try {
      await locator.waitFor({ timeout: Math.max(1, deadline - Date.now()) })
      return
    } catch (error) {
      const frameWentAway = error instanceof Error && error.message.includes('has been closed') && !page.isClosed() && page.context().browser()?.isConnected() === true
      if (!frameWentAway || Date.now() >= deadline) throw error
    }
  }
}

export async function screenshot (page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = `${SCREENSHOTS}${name}.png`
  await page.screenshot({ path, fullPage: true })
  return path
}

/** The review history (developer portal and reviewer page) as text, once it has loaded: the thread shows "Loading the history…" until its list comes. */
export async function historyText (page: Page): Promise<string> {
  const list = page.getByRole('list', { name: 'Review history, newest first' })
  await list.waitFor()
  return await list.innerText()
}

/** Logs in through the screen; `next` is where the guard sent the browser from. */
export async function logIn (page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32 (bytes: Buffer): number {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk (type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A real PNG of one colour, to upload as an icon or screenshot. */
export function solidPng (width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3])])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))])
}

export interface AxeViolation { id: string, impact: string | null, help: string, nodes: string[] }

let axeSource: string | null = null

/**
 * axe-core run in the page: every violation with its impact. The script is evaluated through the
 * devtools protocol, which the admin's CSP (script-src 'self') allows. The apps' frames are not audited
 * (third-party content): with `iframes` on, axe pings every frame with the page's origin as the
 * postMessage target, and each cross-origin app frame logs an origin-mismatch warning (#29 item 15).
 */
export async function axeViolations (page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8')
  if (await page.evaluate(() => !('axe' in window))) await page.evaluate(axeSource)
  return await page.evaluate(async () => {
    type Result = { violations: Array<{ id: string, impact: string | null, help: string, nodes: Array<{ target: unknown[] }> }> }
    const axe = (window as unknown as { axe: { run: (context: Document, options: { iframes: boolean }) => Promise<Result> } }).axe
    const { violations } = await axe.run(document, { iframes: false })
    return violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }))
  })
}

/** The serious and critical violations only (none is the bar, DESIGN §17). */
export async function seriousAxeViolations (page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/** The page is no wider than the viewport (no sideways scrolling at 390 px). */
export async function fitsWidth (page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

/** What a hostile app's server answers for a path: a content type and a body, or null for a 404. */
export type HostileAnswer = { type: string, body: string } | null

/**
 * A hostile app's server on 127.0.0.1, closed on teardown; returns its origin. `answer` gets each
 * request's URL (and the origin, for scripts that report back to it).
 */
export async function hostileServer (t: Test, answer: (url: URL, origin: string) => HostileAnswer): Promise<string> {
  let origin = ''
  const server = createServer((request, response) => {
    const found = answer(new URL(request.url ?? '/', 'http://x'), origin)
    if (found === null) response.statusCode = 404
    else response.setHeader('content-type', found.type)
    response.end(found?.body ?? '')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return origin
}
