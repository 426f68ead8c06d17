import type { StorefrontView } from './view.ts'

const sorted = (origins: Iterable<string>) => [...new Set(origins)].sort()

/**
 * The page's Content-Security-Policy: frames only from the rendered blocks' and widgets' origins,
 * scripts only from the platform ('self': the host script) and the enabled GLOBAL_SCRIPT embeds, no
 * inline script or style. `frameAncestors` are the origins that may frame the storefront (the admin
 * editor preview). Origins come from URL.origin, so they cannot carry `;` or spaces.
 */
export function contentSecurityPolicy (view: Pick<StorefrontView, 'blocks' | 'widgets' | 'scripts'> | null, frameAncestors: string[]): string {
  const frames = sorted([...(view?.blocks ?? []), ...(view?.widgets ?? [])].map((x) => x.origin))
  const scripts = sorted((view?.scripts ?? []).map((x) => x.origin))
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scripts].join(' ')}`,
    `frame-src ${frames.length === 0 ? "'none'" : frames.join(' ')}`,
    "style-src 'self'",
    "img-src 'self' https: data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${["'self'", ...sorted(frameAncestors)].join(' ')}`
  ].join('; ')
}

/** Headers of every storefront HTML answer. */
export function securityHeaders (csp: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cache-control': 'no-cache'
  }
}
