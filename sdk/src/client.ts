import type { ErrorCode } from './contract/error-codes.ts'
import { API_VERSION_HEADER, type ApiVersion, type VersionedResources } from './contract/api-versions.ts'
import type {
  Business, CreatedWebhook, CreateOrderInput, CreatePurchaseInput, CreateSubscriptionInput, CreateUsageRecordInput, CreateWebhookInput,
  DashboardAnalytics, DashboardParams, DeliveryListParams, FetchLike, ListParams, ListResponse, OrderListParams, OrderStatus, Page,
  Purchase, RateLimitInfo, Redelivered, Replayed, ReplayInput, Review, ReviewListParams, ReviewStats, Subscription, UpdatedWebhook,
  UpdateWebhookInput, UsageRecord, WebhookDelivery, WebhookRegistration, WebhookTestResult
} from './types.ts'
import type { BulkExport, SyncResource } from './contract/bulk-exports.ts'
import { BulkExportError, BulkExportRun, type BulkExportOptions } from './bulk-exports.ts'
import { SyncIterator, syncQuery, type SyncPage, type SyncParams } from './sync.ts'

/** Typed client of the App API ({base_url}/app-api) and webhook management ({base_url}/webhooks). */

export const DEFAULT_MAX_RETRIES = 2
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000
/** Wait used when a 429 carries no usable Retry-After. */
const FALLBACK_RETRY_DELAY_MS = 1000

export interface AppApiClientOptions {
  /** {base_url}: the API host, e.g. https://api.example.com */
  baseUrl: string
  /** The installation's access token (fbat_…). */
  accessToken: string
  fetch?: FetchLike
  /** Retries of a 429 answer, each after its Retry-After. Default 2; 0 disables. */
  maxRetries?: number
  /** A Retry-After longer than this is not waited for: the 429 is thrown at once. Default 60 s. */
  maxRetryDelayMs?: number
  /**
   * The API version to speak (sent as App-Api-Version on every call), e.g. '2026-12': orders' and products'
   * money as { amount, currency }. Unset: the installation's pinned version answers, typed as 2026-11.
   */
  apiVersion?: ApiVersion
}

/** One problem of a 400 that lists several: the field (a JSON Pointer into the body unless `in` says otherwise), what is wrong, its code. */
export interface ErrorProblem { in?: 'body' | 'querystring' | 'params' | 'headers', path: string, message: string, code: ErrorCode }

/**
 * An error answer of the API, with the fields of its error body (spec, Errors). Decide by `code`
 * (stable, DESIGN §21), never by `message`, whose wording may change.
 */
export class AppApiError extends Error {
  readonly statusCode: number
  /** HTTP reason phrase, e.g. "Not Found". */
  readonly error: string
  /** The stable error code (`product_not_found`, `scope_missing`, `rate_limited`, …); null when the answer had none (a proxy's page, say). */
  readonly code: ErrorCode | null
  /** Every problem of a validation error, each with its field's path; empty otherwise. */
  readonly errors: ErrorProblem[]
  readonly body: unknown
  readonly retryAfterSeconds: number | null
  constructor (statusCode: number, error: string, message: string, body: unknown, retryAfterSeconds: number | null = null) {
    super(message)
    this.name = 'AppApiError'
    this.statusCode = statusCode
    this.error = error
    this.body = body
    this.retryAfterSeconds = retryAfterSeconds
    const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {}
    // a code this SDK version does not list yet is still passed on: a newer server may add codes
    this.code = typeof record.code === 'string' ? record.code as ErrorCode : null
    this.errors = Array.isArray(record.errors) ? record.errors as ErrorProblem[] : []
  }
}

type Query = Record<string, string | number | boolean | undefined>

interface RequestOptions {
  query?: Query
  body?: unknown
  signal?: AbortSignal
}

/** Seconds to wait from a Retry-After value (delta-seconds or HTTP-date); null when unusable. */
export function parseRetryAfter (value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return null
  return Math.max(0, Math.ceil((date - now) / 1000))
}

function headerNumber (headers: Headers, name: string): number | null {
  const value = headers.get(name)
  if (value === null || value.trim() === '') return null
  const parsed = Number(value)
  return Number.isFinite(parsed) ? parsed : null
}

async function readBody (response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function toApiError (response: Response, body: unknown): AppApiError {
  const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {}
  const error = typeof record.error === 'string' ? record.error : (response.statusText !== '' ? response.statusText : 'Error')
  const message = typeof record.message === 'string'
    ? record.message
    : typeof body === 'string' && body !== '' ? body.slice(0, 500) : `${response.status} ${error}`
  return new AppApiError(response.status, error, message, body, parseRetryAfter(response.headers.get('retry-after')))
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const segment = (value: string): string => encodeURIComponent(value)

/**
 * `apiVersion` types the answers: `createAppApiClient({ ..., apiVersion: '2026-12' }).orders.get(id)` is an
 * MoneyOrder, whose amounts are { amount, currency } objects.
 */
export function createAppApiClient<const V extends ApiVersion = '2026-11'> (options: AppApiClientOptions & { apiVersion?: V }) {
  type Resources = VersionedResources[V]
  type Order = Resources['Order']
  type Product = Resources['Product']
  if (typeof options.accessToken !== 'string' || options.accessToken === '') throw new TypeError('accessToken is required')
  const base = new URL(options.baseUrl)
  const doFetch = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
  const maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be a non-negative integer')
  let rateLimit: RateLimitInfo | null = null
  let answeredVersion: string | null = null
  const api = (path: string): string => `/app-api${path}`

  function buildUrl (path: string, query: Query = {}): string {
    const url = new URL(base.pathname.replace(/\/$/, '') + path, base)
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    return url.toString()
  }

  async function request<T> (method: string, path: string, { query, body, signal }: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.accessToken}`, accept: 'application/json' }
    if (options.apiVersion !== undefined) headers[API_VERSION_HEADER.toLowerCase()] = options.apiVersion
    if (body !== undefined) headers['content-type'] = 'application/json'
    const init: RequestInit = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'error', signal }
    const url = buildUrl(path, query)
    for (let attempt = 0; ; attempt++) {
      const response = await doFetch(url, init)
      rateLimit = {
        limit: headerNumber(response.headers, 'x-ratelimit-limit'),
        remaining: headerNumber(response.headers, 'x-ratelimit-remaining'),
        reset: headerNumber(response.headers, 'x-ratelimit-reset')
      }
      answeredVersion = response.headers.get(API_VERSION_HEADER) ?? answeredVersion
      const parsed = await readBody(response)
      if (response.ok) return parsed as T
      const error = toApiError(response, parsed)
      if (response.status !== 429 || attempt >= maxRetries) throw error
      const delayMs = error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : FALLBACK_RETRY_DELAY_MS
      if (delayMs > maxRetryDelayMs) throw error
      await sleep(delayMs)
    }
  }

  /** The records of each list that syncs, in this client's API version. */
  type SyncRecords = { products: Product, orders: Order, reviews: Review }

  const syncPage = <R extends SyncResource>(resource: R, query: Query) => request<SyncPage<SyncRecords[R]>>('GET', api(`/${resource}`), { query })

  /** POST /app-api/bulk-exports; a 409 (one already running) becomes a BulkExportError with code bulk_export_running. */
  async function createBulkExport (resource: SyncResource, options: Pick<BulkExportOptions, 'updatedSince' | 'signal'> = {}): Promise<BulkExport> {
    const { updatedSince, signal } = options
    const body = { resource, ...(updatedSince === undefined ? {} : { updatedSince: updatedSince instanceof Date ? updatedSince.toISOString() : updatedSince }) }
    try {
      return await request<BulkExport>('POST', api('/bulk-exports'), { body, signal })
    } catch (error) {
      if (!(error instanceof AppApiError) || error.statusCode !== 409) throw error
      const running = error.body as { exportId?: unknown, id?: unknown } | undefined
      const exportId = typeof running?.exportId === 'string' ? running.exportId : typeof running?.id === 'string' ? running.id : null
      throw new BulkExportError('bulk_export_running',
        `a bulk export of this installation is already running${exportId === null ? '' : ` (${exportId})`}: wait for it to finish (${error.message})`,
        { exportId, cause: error })
    }
  }

  return {
    /** X-RateLimit-* of the last response; null before the first request. */
    get rateLimit (): RateLimitInfo | null { return rateLimit },
    /** The API version the last answer was given in (its App-Api-Version header); null before the first. */
    get apiVersion (): string | null { return answeredVersion },

    products: {
      list: (params: ListParams = {}) => request<ListResponse<Product>>('GET', api('/products'), { query: { ...params } }),
      get: (id: string) => request<Product>('GET', api(`/products/${segment(id)}`)),
      bySlug: (slug: string) => request<Product>('GET', api(`/products/slug/${segment(slug)}`))
    },

    orders: {
      list: (params: OrderListParams = {}) => request<ListResponse<Order>>('GET', api('/orders'), { query: { ...params } }),
      get: (id: string) => request<Order>('GET', api(`/orders/${segment(id)}`)),
      updateStatus: (id: string, status: OrderStatus) => request<Order>('PATCH', api(`/orders/${segment(id)}/status`), { body: { status } }),
      create: (input: CreateOrderInput) => request<Order>('POST', api('/orders'), { body: input }),
      /** For app-provided payment methods: report the outcome of the payment. */
      setPaymentStatus: (id: string, status: 'COMPLETED' | 'FAILED') => request<Order>('POST', api(`/orders/${segment(id)}/payment`), { body: { status } })
    },

    reviews: {
      list: (params: ReviewListParams = {}) => request<ListResponse<Review>>('GET', api('/reviews'), { query: { ...params } }),
      stats: () => request<ReviewStats>('GET', api('/reviews/stats'))
    },

    analytics: {
      dashboard: (params: DashboardParams = {}) => request<DashboardAnalytics>('GET', api('/analytics/dashboard'), { query: { ...params } })
    },

    business: {
      get: () => request<Business>('GET', api('/business'))
    },

    pages: {
      list: (params: ListParams = {}) => request<ListResponse<Page>>('GET', api('/pages'), { query: { ...params } }),
      bySlug: (slug: string) => request<Page>('GET', api(`/pages/${segment(slug)}`))
    },

    /**
     * App billing (DESIGN §23): the charges of this installation, no scope needed. A charge is PENDING
     * until the merchant approves it at its `confirmationUrl` (send their browser there, top level);
     * they come back to `returnUrl?charge_id=…&status=…`. Refusals carry their code: `plan_unknown`,
     * `plan_kind_mismatch`, `return_url_foreign`, `charge_not_found`, `charge_not_active`,
     * `usage_not_in_plan`, `usage_cap_exceeded` (422, nothing recorded; `body.balanceRemaining`).
     */
    billing: {
      createSubscription: (input: CreateSubscriptionInput) => request<Subscription>('POST', api('/billing/subscriptions'), { body: input }),
      listSubscriptions: (params: ListParams = {}) => request<ListResponse<Subscription>>('GET', api('/billing/subscriptions'), { query: { ...params } }),
      getSubscription: (id: string) => request<Subscription>('GET', api(`/billing/subscriptions/${segment(id)}`)),
      /** Only an ACTIVE subscription: otherwise `charge_not_active` (409). */
      cancelSubscription: (id: string) => request<Subscription>('POST', api(`/billing/subscriptions/${segment(id)}/cancel`)),
      /**
       * Usage against the plan's capped amount in the current period. The same `idempotencyKey` again
       * answers the first record and records nothing, so a retry never charges twice.
       */
      createUsageRecord: (subscriptionId: string, input: CreateUsageRecordInput) =>
        request<UsageRecord>('POST', api(`/billing/subscriptions/${segment(subscriptionId)}/usage-records`), { body: input }),
      createPurchase: (input: CreatePurchaseInput) => request<Purchase>('POST', api('/billing/purchases'), { body: input }),
      listPurchases: (params: ListParams = {}) => request<ListResponse<Purchase>>('GET', api('/billing/purchases'), { query: { ...params } })
    },

    /**
     * Incremental sync (DESIGN §25): the records of `resource` updated at or after `updatedSince`
     * (default 1970-01-01T00:00:00Z, everything), in (updatedAt, id) order, one by one across pages.
     * Store `iterator.lastUpdatedAt` and pass it as `updatedSince` next time to get only what changed.
     *
     *   const orders = api.sync('orders', { updatedSince: saved, status: 'PENDING', limit: 50 })
     *   for await (const order of orders) upsert(order)
     *   saved = orders.lastUpdatedAt ?? saved
     */
    sync: <R extends SyncResource>(resource: R, params: SyncParams<R> = {}) =>
      new SyncIterator<SyncRecords[R]>(async (query) => await syncPage(resource, query), syncQuery(params)),

    /** One page of a list in cursor mode: `{updatedSince, limit, ...filters}` for the first, `{cursor, limit}` after. */
    syncPage: <R extends SyncResource>(resource: R, params: SyncParams<R> = {}) => syncPage(resource, syncQuery(params)),

    /**
     * A bulk export of `resource` (DESIGN §25), iterated for its records: creates it, polls it (waiting
     * 1 s, growing to 10 s: each poll is a request), downloads its file without the token, checks its
     * sha256 and size and yields its records a line at a time. Throws BulkExportError with a code:
     * `bulk_export_running`, `bulk_export_failed` (the export's `error` as message), `download_failed`,
     * `download_mismatch`, `row_count_mismatch`, `file_invalid`.
     *
     *   const run = api.bulkExport('orders')
     *   for await (const order of run) upsert(order)
     *   run.bulkExport?.rowCount
     */
    bulkExport: <R extends SyncResource>(resource: R, options: BulkExportOptions = {}) =>
      new BulkExportRun<SyncRecords[R]>({
        create: async () => await createBulkExport(resource, options),
        read: async (id) => await request<BulkExport>('GET', api(`/bulk-exports/${segment(id)}`), { signal: options.signal }),
        fetch: doFetch
      }, options),

    /** POST /app-api/bulk-exports: starts an export (202, RUNNING). */
    createBulkExport,
    /** GET /app-api/bulk-exports/:id: the export; COMPLETED carries its signed `url`, FAILED its `error`. */
    getBulkExport: (id: string) => request<BulkExport>('GET', api(`/bulk-exports/${segment(id)}`)),

    webhooks: {
      create: (input: CreateWebhookInput) => request<CreatedWebhook>('POST', '/webhooks', { body: input }),
      list: (params: ListParams = {}) => request<ListResponse<WebhookRegistration>>('GET', '/webhooks', { query: { ...params } }),
      get: (id: string) => request<WebhookRegistration>('GET', `/webhooks/${segment(id)}`),
      update: (id: string, input: UpdateWebhookInput) => request<UpdatedWebhook>('PATCH', `/webhooks/${segment(id)}`, { body: input }),
      delete: (id: string) => request<unknown>('DELETE', `/webhooks/${segment(id)}`),
      test: (id: string) => request<WebhookTestResult>('POST', `/webhooks/${segment(id)}/test`),
      deliveries: (id: string, params: DeliveryListParams = {}) =>
        request<ListResponse<WebhookDelivery>>('GET', `/webhooks/${segment(id)}/deliveries`, { query: { ...params } }),
      redeliver: (id: string, deliveryId: string) =>
        request<Redelivered>('POST', `/webhooks/${segment(id)}/deliveries/${segment(deliveryId)}/redeliver`),
      replay: (id: string, input: ReplayInput) => request<Replayed>('POST', `/webhooks/${segment(id)}/replay`, { body: input })
    }
  }
}

export type AppApiClient<V extends ApiVersion = '2026-11'> = ReturnType<typeof createAppApiClient<V>>

/**
 * Walks every page of a list method, yielding records one at a time:
 *
 *   for await (const product of paginate(client.products.list, { limit: 100 })) { ... }
 */
export async function * paginate<T, P extends ListParams> (
  list: (params: P) => Promise<ListResponse<T>>,
  params: P = {} as P
): AsyncGenerator<T, void, undefined> {
  let page = params.page ?? 1
  for (;;) {
    const result = await list({ ...params, page })
    yield * result.data
    const seen = (result.page - 1) * result.limit + result.data.length
    if (result.data.length === 0 || seen >= result.total) return
    page = result.page + 1
  }
}
