import type { Config } from './config.ts'

/** The placeholder of a per-store storefront host (`https://{store}.shops.example`). */
export const STORE_PLACEHOLDER = '{store}'

/** These three name the same machine: one host when comparing origins (DESIGN §14). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' }

interface OriginKey { protocol: string, host: string, port: string }

function keyOf (url: URL): OriginKey {
  const host = url.hostname.toLowerCase()
  return { protocol: url.protocol, host: LOOPBACK.has(host) ? 'localhost' : host, port: url.port === '' ? DEFAULT_PORT[url.protocol] ?? '' : url.port }
}

/** An origin, or a host template whose leading `{store}` label stands for any one DNS label. */
function matches (candidate: OriginKey, origin: string): boolean {
  const template = origin.includes(STORE_PLACEHOLDER)
  const key = keyOf(new URL(template ? origin.replace(STORE_PLACEHOLDER, 'x') : origin))
  if (candidate.protocol !== key.protocol || candidate.port !== key.port) return false
  if (!template) return candidate.host === key.host
  const suffix = key.host.slice(1)
  return candidate.host.endsWith(suffix) && /^[a-z0-9-]+$/.test(candidate.host.slice(0, -suffix.length))
}

/**
 * The platform's three origins (DESIGN §14): the API (`BASE_URL`), the admin SPA (`ADMIN_URL`) and the
 * storefront (`STOREFRONT_URL`, an origin or a `{store}` host template). Read at request time, since
 * with `PORT=0` the ports are known only once the process listens (`listening`).
 */
export function createOrigins (config: Pick<Config, 'baseUrl' | 'adminUrl' | 'storefrontUrl' | 'urlsFromPorts'>) {
  let baseUrl = config.baseUrl
  let adminUrl = config.adminUrl
  let storefrontUrl = config.storefrontUrl

  return {
    get baseUrl () { return baseUrl },
    get adminUrl () { return adminUrl },
    /** The storefront origin or host template, without a trailing slash. */
    get storefrontUrl () { return storefrontUrl },
    get perStoreHosts () { return storefrontUrl.includes(STORE_PLACEHOLDER) },
    /** The origin that serves one store (its host, with a template). */
    storefrontOrigin (businessSlug: string): string {
      return storefrontUrl.replace(STORE_PLACEHOLDER, businessSlug)
    },
    /** The home page of a store: paths stay `/store/:businessSlug` in every mode. */
    storeUrl (businessSlug: string): string {
      return `${storefrontUrl.replace(STORE_PLACEHOLDER, businessSlug)}/store/${businessSlug}`
    },
    /** A CSP source for every store: the origin, or `https://*.shops.example` for a template. */
    get storefrontSource (): string {
      return storefrontUrl.replace(STORE_PLACEHOLDER, '*')
    },
    /** Whether `value` (an absolute URL) is served by the platform: scheme, host and port compared, no DNS. */
    isPlatformOrigin (value: string): boolean {
      let url: URL
      try {
        url = new URL(value)
      } catch {
        return false
      }
      const candidate = keyOf(url)
      return [baseUrl, adminUrl, storefrontUrl].some((origin) => matches(candidate, origin))
    },
    /** With `PORT=0`: the URLs derived from the ports take the ports the process really listens on. */
    listening (ports: { api: number, storefront: number }, host = 'localhost'): void {
      if (config.urlsFromPorts.base) baseUrl = `http://${host}:${ports.api}`
      if (config.urlsFromPorts.admin) adminUrl = baseUrl
      if (config.urlsFromPorts.storefront) storefrontUrl = `http://${host}:${ports.storefront}`
    }
  }
}

export type Origins = ReturnType<typeof createOrigins>
