/**
 * Headers of the admin SPA's answers (DESIGN §14). The SPA's own files only, calls to its own origin,
 * frames only from installed apps' admin pages and the storefront (editor preview), and it is never
 * framed: that also covers the OAuth consent screen, which clickjacking would target.
 */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin'
}

/** The CSP of the SPA's HTML; `frameSources` are origins (or `https://*.host` for per-store hosts). */
export function adminContentSecurityPolicy (frameSources: string[]): string {
  const frames = [...new Set(frameSources)].sort()
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Preact sets style attributes through the CSSOM, which CSP allows; the stylesheets are files
    "style-src 'self'",
    // app icons and screenshots may live on the apps' own hosts
    "img-src 'self' data: blob: https: http:",
    "connect-src 'self'",
    `frame-src ${frames.length === 0 ? "'none'" : frames.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join('; ')
}
