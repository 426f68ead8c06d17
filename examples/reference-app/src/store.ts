import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Subscription } from '@app-platform/sdk'

/*
 * Everything the app remembers, in one JSON file (`<dataDir>/installations.json`). A real app would
 * use its own database; a file keeps the example readable and survives a restart all the same.
 * Writes go to a temporary file that is renamed over the old one, so a crash never leaves half a file.
 */

/** What the token exchange gave us for one business. */
export interface Installation {
  installationId: string
  businessId: string
  /** The store's slug, from the App URL's `business` parameter (null when the install did not start there). */
  businessSlug: string | null
  accessToken: string
  /** Signs this installation's webhooks, hook calls and admin-page session tokens. */
  webhookSecret: string
  scopes: string[]
  installedAt: string
}

/** An OAuth flow under way: kept from the App URL until the callback (10 minutes at most). */
export interface PendingAuthorization {
  state: string
  codeVerifier: string
  businessId: string | null
  businessSlug: string | null
  createdAt: string
}

/** A webhook delivery we handled: its id dedupes retries, and the admin page lists the latest. */
export interface ReceivedEvent {
  eventId: string
  event: string
  receivedAt: string
  summary: string
}

/** A payment session opened by the checkout.create_payment hook. */
export interface Payment {
  invoiceId: string
  orderId: string
  businessId: string
  amount: string
  currency: string
  description: string
  status: 'PENDING' | 'COMPLETED'
  expiresAt: string
}

/** An order of the admin page's feed (src/order-feed.ts), as the App API last showed it; amount in minor units. */
export interface FeedOrder {
  id: string
  orderNumber: string
  status: string
  amount: number
  currency: string
  updatedAt: string
}

/** The feed of one business: its latest orders, and the updatedAt of the last order read (the next refresh asks for changes since). */
export interface OrderFeed {
  lastUpdatedAt: string | null
  orders: FeedOrder[]
}

export interface Credentials { clientId: string, clientSecret: string }

interface StoreData {
  credentials: Credentials | null
  installations: Record<string, Installation>
  pending: Record<string, PendingAuthorization>
  events: Record<string, ReceivedEvent[]>
  payments: Record<string, Payment>
  /** The business's subscription to our paid plan as the App API last showed it (src/billing.ts). */
  subscriptions: Record<string, Subscription>
  orderFeeds: Record<string, OrderFeed>
}

export const STORE_FILE = 'installations.json'
/** Event ids remembered per business: enough to dedupe the platform's retries (the last comes after about 2.7 hours). */
export const MAX_EVENTS_PER_BUSINESS = 200
export const PENDING_TTL_MS = 10 * 60_000

const empty = (): StoreData => ({ credentials: null, installations: {}, pending: {}, events: {}, payments: {}, subscriptions: {}, orderFeeds: {} })

function read (path: string): StoreData {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty()
    throw error
  }
  return { ...empty(), ...JSON.parse(text) as Partial<StoreData> }
}

export function openStore (dataDir: string, now: () => Date = () => new Date()) {
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, STORE_FILE)
  const data = read(path)

  function save (): void {
    const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
    writeFileSync(temporary, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 })
    renameSync(temporary, path)
  }

  function dropExpiredPending (): void {
    const oldest = now().getTime() - PENDING_TTL_MS
    for (const [state, pending] of Object.entries(data.pending)) {
      if (Date.parse(pending.createdAt) < oldest) delete data.pending[state]
    }
  }

  return {
    path,

    credentials: (): Credentials | null => data.credentials,
    setCredentials (credentials: Credentials): void {
      data.credentials = credentials
      save()
    },

    installation: (businessId: string): Installation | null => data.installations[businessId] ?? null,
    installations: (): Installation[] => Object.values(data.installations),
    saveInstallation (installation: Installation): void {
      data.installations[installation.businessId] = installation
      save()
    },

    startAuthorization (pending: Omit<PendingAuthorization, 'createdAt'>): void {
      dropExpiredPending()
      data.pending[pending.state] = { ...pending, createdAt: now().toISOString() }
      save()
    },
    /** The pending flow of `state`, removed: a state works once. */
    takeAuthorization (state: string): PendingAuthorization | null {
      dropExpiredPending()
      const pending = data.pending[state] ?? null
      if (pending !== null) {
        delete data.pending[state]
        save()
      }
      return pending
    },

    hasEvent: (eventId: string): boolean => Object.values(data.events).some((list) => list.some((e) => e.eventId === eventId)),
    events: (businessId: string): ReceivedEvent[] => data.events[businessId] ?? [],
    recordEvent (businessId: string, event: ReceivedEvent): void {
      const list = [event, ...(data.events[businessId] ?? [])].slice(0, MAX_EVENTS_PER_BUSINESS)
      data.events[businessId] = list
      save()
    },

    payment: (invoiceId: string): Payment | null => data.payments[invoiceId] ?? null,
    savePayment (payment: Payment): void {
      data.payments[payment.invoiceId] = payment
      save()
    },

    subscription: (businessId: string): Subscription | null => data.subscriptions[businessId] ?? null,
    saveSubscription (businessId: string, subscription: Subscription): void {
      data.subscriptions[businessId] = subscription
      save()
    },

    orderFeed: (businessId: string): OrderFeed => data.orderFeeds[businessId] ?? { lastUpdatedAt: null, orders: [] },
    saveOrderFeed (businessId: string, feed: OrderFeed): void {
      data.orderFeeds[businessId] = feed
      save()
    },

    /**
     * business.data_erasure: everything kept about the business goes (spec, Events). An erasure that
     * comes for an uninstall older than our installation (the merchant came back since) erases what we
     * kept before that uninstall and leaves the installation the merchant has now.
     */
    eraseBusiness (businessId: string, uninstalledAt?: string): void {
      const current = data.installations[businessId]
      const before = uninstalledAt === undefined ? Number.NaN : Date.parse(uninstalledAt)
      if (current !== undefined && Number.isFinite(before) && Date.parse(current.installedAt) > before) {
        data.events[businessId] = (data.events[businessId] ?? []).filter((event) => Date.parse(event.receivedAt) > before)
        for (const [invoiceId, payment] of Object.entries(data.payments)) {
          if (payment.businessId === businessId && Date.parse(payment.expiresAt) <= before) delete data.payments[invoiceId]
        }
        const subscription = data.subscriptions[businessId]
        if (subscription !== undefined && Date.parse(subscription.createdAt) <= before) delete data.subscriptions[businessId]
        // the feed mixes orders read before and after that uninstall: the next refresh reads it again
        delete data.orderFeeds[businessId]
        save()
        return
      }
      delete data.installations[businessId]
      delete data.events[businessId]
      delete data.subscriptions[businessId]
      delete data.orderFeeds[businessId]
      for (const [invoiceId, payment] of Object.entries(data.payments)) {
        if (payment.businessId === businessId) delete data.payments[invoiceId]
      }
      for (const [state, pending] of Object.entries(data.pending)) {
        if (pending.businessId === businessId) delete data.pending[state]
      }
      save()
    },

    /** Whether anything at all is kept about the business (tests of the erasure). */
    holdsBusiness: (businessId: string): boolean => JSON.stringify(data).includes(businessId)
  }
}

export type Store = ReturnType<typeof openStore>
