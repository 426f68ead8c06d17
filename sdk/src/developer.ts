import type { FetchLike } from './types.ts'
import { AppApiError } from './client.ts'

/**
 * The developer side of the platform ({base_url}/developer/..., /oauth/device_authorization): what
 * the `app-platform` CLI and other developer tools are built on. Authorised by a CLI token (fbcli_…)
 * from the device login, or a portal session JWT.
 */

export const CLI_CLIENT_ID = 'app-platform-cli'
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

export interface DeviceAuthorization {
  device_code: string
  user_code: string
  verification_uri: string
  verification_uri_complete: string
  expires_in: number
  interval: number
}

export interface DeviceToken { access_token: string, token_type: 'bearer', expires_in: number }

/** A problem of a manifest or body, with its JSON path (400 answers list them all). */
export interface ApiProblem { path: string, message: string }

export interface DeveloperApp {
  id: string
  name: string
  slug: string
  status: string
  version: string
  clientId: string
  isPublished: boolean
  manifest: Record<string, unknown>
  [field: string]: unknown
}

/** An extension by kind and key, e.g. `{ kind: 'hook', key: 'checkout.shipping_rates' }`. */
export interface ExtensionRef { kind: string, key: string }
export interface ManifestSync { created: ExtensionRef[], updated: ExtensionRef[], deactivated: ExtensionRef[], reactivated: ExtensionRef[] }

export interface DeveloperClientOptions {
  /** {base_url}: where the platform's API answers. */
  baseUrl: string
  /** A CLI token (fbcli_…) or a session JWT; absent for the device login itself. */
  token?: string
  fetch?: FetchLike
}

/** Every problem a 400 listed (`errors: [{path, message}]`), else none. */
export function problemsOf (error: unknown): ApiProblem[] {
  if (!(error instanceof AppApiError)) return []
  const body = error.body as { errors?: unknown }
  return Array.isArray(body?.errors) ? body.errors.filter((p): p is ApiProblem => typeof p?.path === 'string' && typeof p?.message === 'string') : []
}

export function createDeveloperClient (options: DeveloperClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '')
  const doFetch = options.fetch ?? globalThis.fetch
  const segment = (value: string): string => encodeURIComponent(value)

  async function request<T> (method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'error' })
    const text = await response.text()
    let parsed: unknown = text
    try { parsed = text === '' ? undefined : JSON.parse(text) } catch {}
    if (response.ok) return parsed as T
    const record = typeof parsed === 'object' && parsed !== null ? parsed as Record<string, unknown> : {}
    const message = typeof record.message === 'string'
      ? record.message
      : typeof record.error_description === 'string' ? record.error_description : `${response.status} ${response.statusText}`
    throw new AppApiError(response.status, typeof record.error === 'string' ? record.error : response.statusText, message, parsed)
  }

  const app = (id: string, rest = ''): string => `/developer/apps/${segment(id)}${rest}`

  return {
    baseUrl: base,
    /** Raw request, for routes this client does not name yet. */
    request,

    device: {
      /** RFC 8628 §3.1: codes for this device and for the developer to approve. */
      start: (deviceName: string) => request<DeviceAuthorization>('POST', '/oauth/device_authorization', { client_id: CLI_CLIENT_ID, device_name: deviceName }),
      /** One poll of the token endpoint (§3.4); an AppApiError's `error` is authorization_pending, slow_down, expired_token or access_denied. */
      poll: (deviceCode: string) => request<DeviceToken>('POST', '/oauth/token', { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: CLI_CLIENT_ID })
    },

    whoami: () => request<{ user: { id: string, email: string, businessId: string | null }, token: { id: string, name: string, expiresAt: string } | null }>('GET', '/developer/cli-tokens/current'),
    logout: () => request<null>('DELETE', '/developer/cli-tokens/current'),

    apps: {
      list: (page = 1, limit = 100) => request<{ data: DeveloperApp[], total: number, page: number, limit: number }>('GET', `/developer/apps?page=${page}&limit=${limit}`),
      get: (id: string) => request<DeveloperApp>('GET', app(id)),
      create: (listing: Record<string, unknown>) => request<{ app: DeveloperApp, clientSecret: string }>('POST', '/developer/apps', listing),
      /** The app's settings (PATCH): on a published app, added scopes move it to DRAFT until a review approves them. */
      update: (id: string, patch: Record<string, unknown>) => request<DeveloperApp>('PATCH', app(id), patch),
      putManifest: (id: string, manifest: Record<string, unknown>, dryRun: boolean) =>
        request<{ manifest: Record<string, unknown>, sync: ManifestSync, dryRun: boolean }>('PUT', `${app(id, '/manifest')}?dryRun=${dryRun}`, { manifest }),
      submit: (id: string) => request<DeveloperApp>('POST', app(id, '/submit')),
      startChecks: (id: string) => request<{ checkRunId: string }>('POST', app(id, '/checks')),
      checkRun: (id: string, runId: string) => request<CheckRun>('GET', app(id, `/checks/${segment(runId)}`)),
      testInstall: (id: string) => request<{ installationId: string, accessToken: string, webhookSecret: string, businessId: string }>('POST', app(id, '/test-install')),
      testStatus: (id: string) => request<{ installed: boolean, installationId: string | null, businessId: string }>('GET', app(id, '/test-status')),
      trigger: (id: string, event: string) => request<{ event: string, eventId: string, businessId: string }>('POST', app(id, '/trigger'), { event }),
      /** The answer to a relayed call (listen): the local app's status, headers and body. */
      relayAnswer: (id: string, callId: string, answer: RelayAnswer) => request<null>('POST', app(id, `/relay/${segment(callId)}`), answer)
    },

    /** Opens a server-sent event stream (the console's live tail, the relay); the caller reads `body`. */
    async stream (path: string, lastEventId?: string, signal?: AbortSignal): Promise<Response> {
      const headers: Record<string, string> = { accept: 'text/event-stream' }
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId
      const response = await doFetch(`${base}${path}`, { headers, signal, redirect: 'error' })
      if (!response.ok) {
        const text = await response.text()
        let message = `${response.status} ${response.statusText}`
        try { message = (JSON.parse(text) as { message?: string }).message ?? message } catch {}
        throw new AppApiError(response.status, response.statusText, message, text)
      }
      return response
    }
  }
}

export interface RelayAnswer { status: number, headers: Record<string, string>, body: string }

/** One run of the app checks (DESIGN §18): RUNNING until every check has an outcome. */
export interface CheckRun {
  id: string
  version: string
  status: 'RUNNING' | 'PASSED' | 'WARNINGS' | 'FAILED'
  progress: { done: number, total: number }
  results: Array<{ id: string, title: string, outcome: 'PASS' | 'WARN' | 'FAIL' | 'SKIP', detail: string, fix: string | null }>
}

export type DeveloperClient = ReturnType<typeof createDeveloperClient>

/** One server-sent event: its name, id and data lines joined. */
export interface ServerSentEvent { event: string, id: string | undefined, data: string }

/**
 * Reads a text/event-stream body event by event (comments and retry lines skipped). `signal` ends the
 * reading at once by cancelling the body's reader: fetch's own signal stops reaching a body whose
 * request object was garbage-collected (undici holds its controller weakly), so a long stream must not rely on it.
 */
export async function * readServerSentEvents (body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ServerSentEvent, void, undefined> {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  const cancel = () => { reader.cancel().catch(() => {}) }
  if (signal?.aborted === true) cancel()
  signal?.addEventListener('abort', cancel, { once: true })
  let buffer = ''
  let event = 'message'
  let id: string | undefined
  let data: string[] = []
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || signal?.aborted === true) return
      buffer += decoder.decode(value, { stream: true })
      let newline = buffer.indexOf('\n')
      while (newline !== -1) {
        const line = buffer.slice(0, newline).replace(/\r$/, '')
        buffer = buffer.slice(newline + 1)
        newline = buffer.indexOf('\n')
        if (line === '') {
          if (data.length > 0) yield { event, id, data: data.join('\n') }
          event = 'message'
          data = []
          continue
        }
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon === -1 ? line : line.slice(0, colon)
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'event') event = value
        else if (field === 'data') data.push(value)
        else if (field === 'id') id = value
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel)
    cancel()
  }
}
