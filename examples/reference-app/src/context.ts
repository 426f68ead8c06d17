import { createAppApiClient, type AppApiClient, type FetchLike } from '@app-platform/sdk'
import type { Installation, Store } from './store.ts'

/** Where the app and the platform live. Read per request: with port 0 they are known only after listen. */
export interface Urls {
  /** This app's own origin as the platform and browsers reach it, e.g. http://localhost:3002. */
  appUrl: string
  /** The platform's API ({base_url}): OAuth token exchange and the App API. */
  platformUrl: string
  /** The platform's admin panel ({admin_url}): the consent screen, and the origin that frames our admin page. */
  adminUrl: string
}

export interface Context {
  urls: Urls
  store: Store
  now: () => Date
  fetch: FetchLike | undefined
  /** The App API client of a business that installed the app, or null. */
  api: (installation: Installation) => AppApiClient
}

export function createContext (urls: Urls, store: Store, options: { now?: () => Date, fetch?: FetchLike } = {}): Context {
  return {
    urls,
    store,
    now: options.now ?? (() => new Date()),
    fetch: options.fetch,
    api: (installation) => createAppApiClient({ baseUrl: urls.platformUrl, accessToken: installation.accessToken, fetch: options.fetch, maxRetries: 0 })
  }
}

export const origin = (url: string): string => new URL(url).origin
