import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent } from 'undici'

export type UrlProblem = string | null
/** Every address a host name resolves to. */
export type Resolver = (host: string) => Promise<string[]>
/** `public`: a global unicast address; `special`: anything in the IANA special-purpose registries. */
export type AddressClassifier = (address: string) => 'public' | 'special'

/**
 * How outbound calls (webhooks, hook calls, the webhook test) pick their targets. In production a
 * target must be https and every address of its host public; the address is checked when the
 * connection is made, inside the HTTP client's lookup, so a DNS answer cannot change between the
 * check and the connect. Tests inject the resolver and classifier: no DNS, loopback only.
 */
export interface OutboundPolicy {
  production: boolean
  resolve: Resolver
  classify: AddressClassifier
}

/** What app code and logs are told about a refused or unreachable target in production: nothing more. */
export const CONNECTION_FAILED = 'connection failed'

const systemResolver: Resolver = async (host) => await new Promise((resolve, reject) => {
  dnsLookup(host, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
    if (error !== null) reject(error)
    else resolve(addresses.map((a) => a.address))
  })
})

/** NAT64 prefixes (RFC 6052 well-known, RFC 8215 local use): the last 32 bits are an IPv4 address. */
const NAT64 = [ipaddr.parseCIDR('64:ff9b::/96'), ipaddr.parseCIDR('64:ff9b:1::/48')]

/**
 * Classifies with ipaddr.js's ranges (the IANA IPv4 and IPv6 special-purpose registries): only
 * `unicast` is public. IPv4-mapped and NAT64 IPv6 addresses are judged as the IPv4 address they
 * carry, so `::ffff:127.0.0.1`, `64:ff9b::7f00:1` and the deprecated IPv4-compatible `::7f00:1`
 * (`::/96`, which some stacks still route to the IPv4 address) are loopback. Unparseable means special.
 */
/** `::a.b.c.d` (RFC 4291 §2.5.5.1); `::` and `::1` in it keep their own meaning through the IPv4 they carry (0.0.0.0, 0.0.0.1: special). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')

export const classifyAddress: AddressClassifier = (address) => {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''))
  } catch {
    return 'special'
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address()
    else if (NAT64.some((range) => v6.match(range)) || v6.match(IPV4_COMPATIBLE)) parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12))
  }
  return parsed.range() === 'unicast' ? 'public' : 'special'
}

export function outboundPolicy (production: boolean, overrides: Partial<Pick<OutboundPolicy, 'resolve' | 'classify'>> = {}): OutboundPolicy {
  return { production, resolve: overrides.resolve ?? systemResolver, classify: overrides.classify ?? classifyAddress }
}

function parse (value: string): URL | string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL'
  if (url.username !== '' || url.password !== '') return 'must not carry credentials'
  return url
}

/** `localhost` and its subdomains name this machine whatever DNS says (RFC 6761). */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost')

/** The URL's host as the resolver and classifier see it (no IPv6 brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** Whether every address `host` resolves to is public (an address literal is its own answer). */
async function resolvesPublic (host: string, policy: OutboundPolicy): Promise<'public' | 'special' | 'unresolved'> {
  if (isLocalName(host)) return 'special'
  const addresses = isIP(host) !== 0 ? [host] : await policy.resolve(host).catch(() => [])
  if (addresses.length === 0) return 'unresolved'
  return addresses.every((address) => policy.classify(address) === 'public') ? 'public' : 'special'
}

/**
 * Why a URL is not acceptable as an outbound target, or null: at registration and on every app
 * edit. Development accepts http(s) anywhere; production wants https and a public host.
 */
export async function outboundUrlProblem (value: string, policy: OutboundPolicy): Promise<UrlProblem> {
  const url = parse(value)
  if (typeof url === 'string') return url
  if (!policy.production) return null
  if (url.protocol !== 'https:') return 'must use https in production'
  const verdict = await resolvesPublic(hostOf(url), policy)
  if (verdict === 'unresolved') return 'host does not resolve'
  return verdict === 'special' ? 'must not point at a private address or any other special-use range' : null
}

/**
 * At send time in production: an address-literal target is judged here (no lookup happens for it);
 * a host name is judged by `pinnedLookup` as the connection is made. Null when the send may go on.
 */
export function literalTargetRefused (value: string, policy: OutboundPolicy): boolean {
  if (!policy.production) return false
  const url = parse(value)
  if (typeof url === 'string' || url.protocol !== 'https:') return true
  const host = hostOf(url)
  if (isLocalName(host)) return true
  return isIP(host) !== 0 && policy.classify(host) !== 'public'
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for the HTTP client's connections (undici passes it to net/tls.connect): resolves with
 * the policy's resolver and, in production, refuses the connection unless every address is public.
 * The connection then goes to an address that was checked, never to a second, later answer.
 */
export function pinnedLookup (policy: OutboundPolicy) {
  return (hostname: string, options: { all?: boolean, family?: number }, callback: LookupCallback): void => {
    const host = hostname.replace(/^\[|\]$/g, '')
    policy.resolve(host).then((addresses) => {
      if (addresses.length === 0) throw Object.assign(new Error(CONNECTION_FAILED), { code: 'ENOTFOUND' })
      if (policy.production && addresses.some((address) => policy.classify(address) !== 'public')) {
        throw Object.assign(new Error(CONNECTION_FAILED), { code: 'EREFUSED_TARGET' })
      }
      const list = addresses.map((address) => ({ address, family: isIP(address) }))
      if (options?.all === true) callback(null, list)
      else callback(null, list[0].address, list[0].family)
    }).catch((error: NodeJS.ErrnoException) => { callback(error, '') })
  }
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

/**
 * An undici Agent for outbound calls under `policy`: in production its connections resolve through
 * `pinnedLookup`, so they reach only addresses that were just checked.
 */
export function outboundAgent (policy: OutboundPolicy, options: Agent.Options = {}): Agent {
  return new Agent(policy.production ? { ...options, connect: { lookup: pinnedLookup(policy) as never } } : options)
}
