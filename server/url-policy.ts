import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'

/** Loopback, private, link-local, CGNAT, unspecified and unique-local ranges. */
export function isPrivateAddress (address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number)
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)
  }
  const v6 = address.toLowerCase()
  return v6 === '::1' || v6 === '::' || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('fe80')
}

export type UrlProblem = string | null

/**
 * Why a URL is not acceptable as an outbound target, or null. Development accepts http(s) anywhere;
 * production wants https and a host that does not resolve to a private address.
 */
export async function outboundUrlProblem (value: string, production: boolean): Promise<UrlProblem> {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL'
  if (url.username !== '' || url.password !== '') return 'must not carry credentials'
  if (!production) return null
  if (url.protocol !== 'https:') return 'must use https in production'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at a private address'
  const addresses = isIP(host) !== 0 ? [host] : await lookup(host, { all: true }).then((all) => all.map((a) => a.address), () => [])
  if (addresses.length === 0) return 'host does not resolve'
  if (addresses.some(isPrivateAddress)) return 'must not point at a private address'
  return null
}

/** Redirect URLs are visited by browsers, not by us: only the scheme rule applies. */
export function redirectUrlProblem (value: string, production: boolean): UrlProblem {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.hash !== '') return 'must not contain a fragment'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:') return production && url.hostname !== 'localhost' && url.hostname !== '127.0.0.1' ? 'must use https in production' : null
  return 'must be an http(s) URL'
}
