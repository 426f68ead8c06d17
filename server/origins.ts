import { defaultStorefrontUrl, STORE_PLACEHOLDER, type Config } from './config.ts'

export { STORE_PLACEHOLDER }

/** These three name the same machine: one host when comparing origins (DESIGN §14). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' }

interface OriginKey { protocol: string, host: string, port: string }

function keyOf (url: URL): OriginKey {
  const host = url.hostname.toLowerCase()
  return { protocol: url.protocol, host: LOOPBACK.has(host) ? 'localhost' : host, port: url.port === '' ? DEFAULT_PORT[url.protocol] ?? '' : url.port }
}

const LABEL = /^[a-z0-9-]+$/

/**
 * The `{store}` label of `candidate` under a host template (`null`: the host is not one of the
 * template's), or for a plain origin `''` when it is that origin.
 */
function labelOf (candidate: OriginKey, origin: string): string | null {
  const template = origin.includes(STORE_PLACEHOLDER)
  const key = keyOf(new URL(template ? origin.replace(STORE_PLACEHOLDER, 'x') : origin))
  if (candidate.protocol !== key.protocol || candidate.port !== key.port) return null
  if (!template) return candidate.host === key.host ? '' : null
  const suffix = key.host.slice(1)
  const label = candidate.host.endsWith(suffix) ? candidate.host.slice(0, -suffix.length) : ''
  return LABEL.test(label) ? label : null
}

/** An origin, or a host template whose leading `{store}` label stands for any one DNS label. */
const matches = (candidate: OriginKey, origin: string): boolean => labelOf(candidate, origin) !== null

/** A template's host without its `{store}` label (`http://{store}.localhost:3001` → `http://localhost:3001`). */
const bareOf = (template: string): string => template.replace(`${STORE_PLACEHOLDER}.`, '')

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
    /**
     * The storefront's bare host, without a store label (`http://localhost:3001` for the default
     * `http://{store}.localhost:3001`): it answers every store's customer API, for API clients that
     * cannot resolve a store's host, and sends pages to the store's own host (DESIGN §21).
     */
    get storefrontBareUrl () { return bareOf(storefrontUrl) },
    /**
     * Which store a storefront request's host names: its `{store}` label under a template, `null` for
     * a host that names no store (the bare host, another name of it, or any host without a template).
     */
    storeOfHost (host: string): string | null {
      if (!storefrontUrl.includes(STORE_PLACEHOLDER)) return null
      let url: URL
      try {
        url = new URL(`${new URL(storefrontUrl.replace(STORE_PLACEHOLDER, 'x')).protocol}//${host}`)
      } catch {
        return null
      }
      const label = labelOf(keyOf(url), storefrontUrl)
      return label === null || label === '' ? null : label
    },
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
      return [baseUrl, adminUrl, storefrontUrl, bareOf(storefrontUrl)].some((origin) => matches(candidate, origin))
    },
    /**
     * With `PORT=0`: the URLs derived from the ports take the ports the process really listens on. A
     * derived storefront keeps its per-store hosts under `localhost` (`{store}.127.0.0.1` is no host).
     */
    listening (ports: { api: number, storefront: number }, host = 'localhost'): void {
      if (config.urlsFromPorts.base) baseUrl = `http://${host}:${ports.api}`
      if (config.urlsFromPorts.admin) adminUrl = baseUrl
      if (config.urlsFromPorts.storefront) storefrontUrl = defaultStorefrontUrl(ports.storefront)
    }
  }
}

export type Origins = ReturnType<typeof createOrigins>
