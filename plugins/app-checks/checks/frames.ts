import { evidence, noAnswer, probe } from '../http.ts'
import type { CheckContext } from '../context.ts'
import { framingProblem, isJavaScript, mimeEssence } from '../frame-policy.ts'
import { fail, pass, type Check, type Verdict } from '../runner.ts'

/** The storefront injects script embeds into every page: anything bigger slows every store down. */
export const MAX_SCRIPT_BYTES = 200 * 1024

/** A page the platform frames: 200, HTML, and headers that let `embedder` frame it. */
interface Framed { id: string, what: string, renderUrl: string, query: Record<string, string>, embedder: string, where: string }

function frameableCheck (context: CheckContext, input: Framed): Check<CheckContext> {
  return {
    id: input.id,
    title: `${input.what} can be framed by the ${input.where}`,
    timeoutMs: context.webhookTimeoutMs + 1000,
    run: async (): Promise<Verdict> => {
      const url = new URL(input.renderUrl)
      for (const [name, value] of Object.entries(input.query)) url.searchParams.set(name, value)
      const answer = await probe(url.toString(), {
        policy: context.policy, clock: context.clock, dispatcher: context.dispatcher, timeoutMs: context.webhookTimeoutMs,
        headers: { accept: 'text/html', 'sec-fetch-dest': 'iframe', referer: `${input.embedder}/` }
      })
      const shown = [evidence(answer)]
      if (answer.status === null) return fail(noAnswer(answer), `Serve ${input.what}'s renderUrl where the platform can reach it.`, shown)
      if (answer.status !== 200) return fail(`${input.what} answered HTTP ${answer.status}`, `Answer the renderUrl with 200 and the page, with the query parameters the platform adds (${Object.keys(input.query).join(', ')}).`, shown)
      if (mimeEssence(answer.headers['content-type']) !== 'text/html') {
        return fail(`${input.what} answered ${answer.headers['content-type'] ?? 'no Content-Type'}, not text/html`, 'Serve the renderUrl as Content-Type: text/html.', shown)
      }
      const problem = framingProblem(answer.headers, input.embedder, url.toString())
      if (problem !== null) {
        return fail(`The ${input.where} (${input.embedder}) cannot frame it: ${problem}`,
          `Drop X-Frame-Options from the renderUrl and allow the ${input.where} in CSP frame-ancestors (${input.embedder}).`, shown)
      }
      return pass(`200 text/html, frameable by ${input.embedder}`, shown)
    }
  }
}

function scriptCheck (context: CheckContext, embedType: string, scriptUrl: string): Check<CheckContext> {
  return {
    id: `embeds.${embedType}.script`,
    title: `The ${embedType} script is JavaScript under 200 KB`,
    timeoutMs: context.webhookTimeoutMs + 1000,
    run: async (): Promise<Verdict> => {
      const answer = await probe(scriptUrl, {
        policy: context.policy, clock: context.clock, dispatcher: context.dispatcher, timeoutMs: context.webhookTimeoutMs, readBytes: MAX_SCRIPT_BYTES,
        headers: { accept: '*/*', 'sec-fetch-dest': 'script', referer: `${context.storefrontOrigin}/` }
      })
      const shown = [evidence(answer)]
      if (answer.status === null) return fail(noAnswer(answer), 'Serve the scriptUrl where the platform and browsers can reach it.', shown)
      if (answer.status !== 200) return fail(`The script answered HTTP ${answer.status}`, 'Answer the scriptUrl with 200 and the script.', shown)
      const type = answer.headers['content-type']
      if (!isJavaScript(type)) {
        return fail(`The script is served as ${type ?? 'no Content-Type'}; browsers with nosniff refuse to run it`, 'Serve the script with Content-Type: text/javascript.', shown)
      }
      if (answer.bytes > MAX_SCRIPT_BYTES) return fail(`The script is larger than ${MAX_SCRIPT_BYTES / 1024} KB`, 'Ship a script under 200 KB: load the rest on demand.', shown)
      return pass(`${mimeEssence(type)}, ${(answer.bytes / 1024).toFixed(1)} KB`, shown)
    }
  }
}

/** Blocks and embeds are framed by the sandbox store's storefront origin, admin pages by the admin origin (DESIGN §14). */
export function frameChecks (context: CheckContext): Array<Check<CheckContext>> {
  const businessId = context.business.id
  const store = { embedder: context.storefrontOrigin, where: 'storefront' }
  const checks: Array<Check<CheckContext>> = []
  for (const block of context.extensions.blocks) {
    checks.push(frameableCheck(context, { id: `blocks.${block.blockType}.frameable`, what: `Block ${block.blockType}`, renderUrl: block.renderUrl, query: { blockId: 'blk_app_check', businessId }, ...store }))
  }
  for (const embed of context.extensions.embeds) {
    if (embed.renderUrl !== undefined) {
      checks.push(frameableCheck(context, { id: `embeds.${embed.embedType}.frameable`, what: `Embed ${embed.embedType}`, renderUrl: embed.renderUrl, query: { businessId }, ...store }))
    }
    if (embed.scriptUrl !== undefined) checks.push(scriptCheck(context, embed.embedType, embed.scriptUrl))
  }
  for (const page of context.extensions.adminPages) {
    checks.push(frameableCheck(context, {
      id: `admin_pages.${page.pageId}.frameable`, what: `Admin page ${page.pageId}`, renderUrl: page.renderUrl,
      query: { businessId, locale: context.business.locale }, embedder: context.adminOrigin, where: 'admin'
    }))
  }
  return checks
}
