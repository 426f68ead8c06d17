/*
 * Whether a browser would let `embedder` (an origin) frame a page that answered with these headers:
 * X-Frame-Options and CSP `frame-ancestors` (CSP Level 3 source matching, enough of it for the
 * sources people write: 'none', 'self', *, schemes, hosts with a leading *. label and ports).
 */

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' }

function sourceAdmits (source: string, embedder: URL, framed: URL): boolean {
  const s = source.trim()
  const lower = s.toLowerCase()
  if (lower === "'none'") return false
  if (lower === "'self'") return embedder.origin === framed.origin
  if (lower === '*') return embedder.protocol === 'http:' || embedder.protocol === 'https:'
  if (/^[a-z][a-z0-9+.-]*:$/.test(lower)) return lower === embedder.protocol || (lower === 'http:' && embedder.protocol === 'https:')
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9.-]+)(?::(\*|\d+))?(?:\/.*)?$/.exec(lower)
  if (match === null) return false
  const [, scheme, host, port] = match
  if (scheme !== undefined && `${scheme}:` !== embedder.protocol && !(scheme === 'http' && embedder.protocol === 'https:')) return false
  if (scheme === undefined && embedder.protocol !== 'http:' && embedder.protocol !== 'https:') return false
  const hostOk = host === '*' || (host.startsWith('*.') ? embedder.hostname.endsWith(host.slice(1)) : embedder.hostname === host)
  if (!hostOk) return false
  const embedderPort = embedder.port === '' ? DEFAULT_PORT[embedder.protocol] : embedder.port
  if (port === '*') return true
  const wanted = port ?? DEFAULT_PORT[scheme === undefined ? embedder.protocol : `${scheme}:`]
  return wanted === embedderPort || (port === undefined && scheme === 'http' && embedder.protocol === 'https:' && embedderPort === '443')
}

/** Why `embedder` may not frame the answer, or null when it may. */
export function framingProblem (headers: Record<string, string>, embedder: string, framedUrl: string): string | null {
  const embedding = new URL(embedder)
  const framed = new URL(framedUrl)
  const xfo = (headers['x-frame-options'] ?? '').trim().toUpperCase()
  if (xfo === 'DENY') return 'it sends X-Frame-Options: DENY'
  if (xfo === 'SAMEORIGIN' && embedding.origin !== framed.origin) return 'it sends X-Frame-Options: SAMEORIGIN'
  // several policies (several headers, or one with commas) must each allow it
  for (const policy of (headers['content-security-policy'] ?? '').split(',')) {
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/)
      if (name?.toLowerCase() !== 'frame-ancestors') continue
      if (!sources.some((source) => sourceAdmits(source, embedding, framed))) return `its CSP "frame-ancestors ${sources.join(' ')}" does not admit ${embedding.origin}`
    }
  }
  return null
}

/** The MIME types browsers run as classic scripts (WHATWG MIME Sniffing, JavaScript MIME type essences). */
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript', 'application/javascript', 'application/x-ecmascript', 'application/x-javascript', 'text/ecmascript', 'text/javascript',
  'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2', 'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript',
  'text/livescript', 'text/x-ecmascript', 'text/x-javascript'
])

export const mimeEssence = (contentType: string | undefined): string => (contentType ?? '').split(';')[0].trim().toLowerCase()
export const isJavaScript = (contentType: string | undefined): boolean => JAVASCRIPT_TYPES.has(mimeEssence(contentType))
