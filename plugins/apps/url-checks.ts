import { EVENT_SCOPES, type EventName } from '../../server/events.ts'
import { outboundUrlProblem, redirectUrlProblem, type OutboundPolicy } from '../../server/url-policy.ts'
import { fieldError } from './errors.ts'

/** Whether a URL is served by the platform itself (DESIGN §14): app code must never run or be called there. */
export type IsPlatformOrigin = (url: string) => boolean

/** The rules an app's URLs are checked by: https in production, the outbound policy, never a platform origin. */
export interface UrlRules { production: boolean, outbound: OutboundPolicy, isPlatformOrigin: IsPlatformOrigin }

const PLATFORM_URL = "must not point at the platform's own origins (API, admin or storefront)"

/** Images shown in the SPA: an http(s) URL or one of the platform's uploads; never javascript: or data:. */
function imageUrlProblem (value: string): string | null {
  if (/^\/media\/[A-Za-z0-9_-]+$/.test(value)) return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an http(s) URL or an uploaded /media/ path'
  } catch {
    return 'must be an http(s) URL or an uploaded /media/ path'
  }
}

interface AppUrls { redirectUrl?: string, appUrl?: string | null, webhookUrl?: string | null, iconUrl?: string | null, screenshots?: string[] }

export async function checkUrls (input: AppUrls, options: UrlRules): Promise<void> {
  const redirect = input.redirectUrl === undefined
    ? null
    : redirectUrlProblem(input.redirectUrl, options.production) ?? (options.isPlatformOrigin(input.redirectUrl) ? PLATFORM_URL : null)
  if (redirect !== null) throw fieldError('app_url_invalid', '/redirectUrl', redirect)
  // the merchant's browser goes there, like the redirect: the same rules (https in production, never a platform origin)
  const entry = input.appUrl === undefined || input.appUrl === null
    ? null
    : redirectUrlProblem(input.appUrl, options.production) ?? (options.isPlatformOrigin(input.appUrl) ? PLATFORM_URL : null)
  if (entry !== null) throw fieldError('app_url_invalid', '/appUrl', entry)
  const webhook = input.webhookUrl === undefined || input.webhookUrl === null
    ? null
    : await outboundUrlProblem(input.webhookUrl, options.outbound) ?? (options.isPlatformOrigin(input.webhookUrl) ? PLATFORM_URL : null)
  if (webhook !== null) throw fieldError('app_url_invalid', '/webhookUrl', webhook)
  const icon = input.iconUrl === undefined || input.iconUrl === null ? null : imageUrlProblem(input.iconUrl)
  if (icon !== null) throw fieldError('app_image_url_invalid', '/iconUrl', icon)
  for (const [i, screenshot] of (input.screenshots ?? []).entries()) {
    const problem = imageUrlProblem(screenshot)
    if (problem !== null) throw fieldError('app_image_url_invalid', `/screenshots/${i}`, problem)
  }
}

export function checkEvents (events: string[], scopes: string[]): void {
  const missing = events.filter((e) => { const scope = EVENT_SCOPES[e as EventName]; return scope !== null && !scopes.includes(scope) })
  if (missing.length > 0) {
    const needs = missing.map((e) => `${e} needs ${EVENT_SCOPES[e as EventName] as string}`).join(', ')
    throw fieldError('webhook_event_scope_missing', '/webhookEvents', `Add the scope or remove the event: ${needs}.`,
      `body/webhookEvents needs scopes the app does not request: ${missing.map((e) => `${e} (${EVENT_SCOPES[e as EventName] as string})`).join(', ')}`)
  }
}
