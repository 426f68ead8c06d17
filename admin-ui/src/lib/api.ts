import type { ErrorCode } from '../../../sdk/src/contract/error-codes.ts'

export type { ErrorCode }

/** One problem of a 400 that lists several: the field (a JSON Pointer into the body), what is wrong, its stable code. */
export interface ApiProblem { in?: 'body' | 'querystring' | 'params' | 'headers', path: string, message: string, code?: ErrorCode }

/** The error body every API error has, with its stable `code` (DESIGN §21); some 400s add every problem in `errors`. */
export interface ApiErrorBody { statusCode: number, error: string, message: string, code?: ErrorCode, errors?: ApiProblem[] }

/** An API error: screens decide by `code` (stable), never by the message text. */
export class ApiError extends Error {
  readonly status: number
  /** The stable error code; null for an answer outside the error format (a proxy's page, the network). */
  readonly code: ErrorCode | null
  readonly body: ApiErrorBody
  constructor (body: ApiErrorBody) {
    super(body.message)
    this.status = body.statusCode
    this.code = body.code ?? null
    this.body = body
  }
}

export interface ApiClientOptions {
  baseUrl?: string
  getToken: () => string | null
  fetch?: typeof fetch
  /** Called on a 401 to a request that carried a session (expired or signed out), so the app can drop it. */
  onUnauthorized?: () => void
  /** Called on a 403 `permission_missing` (the owner took a permission away since the session began), so the admin can look again. */
  onPermissionMissing?: () => void
}

/** A plain factory (testable without a browser): adds the JWT, parses JSON, maps the error format. */
export function createApiClient (options: ApiClientOptions) {
  const doFetch = options.fetch ?? fetch.bind(globalThis)
  async function request<T> (method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' }
    const token = options.getToken()
    if (token !== null) headers.authorization = `Bearer ${token}`
    // FormData sets its own multipart boundary; everything else is JSON
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData
    if (body !== undefined && !isForm) headers['content-type'] = 'application/json'
    const payload = body === undefined ? undefined : isForm ? body : JSON.stringify(body)
    const response = await doFetch(`${options.baseUrl ?? ''}${path}`, { method, headers, body: payload })
    const text = await response.text()
    const data = text === '' ? null : JSON.parse(text)
    if (!response.ok) {
      if (response.status === 401 && token !== null) options.onUnauthorized?.()
      if (response.status === 403 && data?.code === 'permission_missing') options.onPermissionMissing?.()
      throw new ApiError(data !== null && typeof data.message === 'string' ? data : { statusCode: response.status, error: response.statusText, message: `Request failed (${response.status})` })
    }
    return data as T
  }
  /** A file the API serves (a CSV export): the same session and error format, the body as a Blob. */
  async function download (path: string): Promise<Blob> {
    const token = options.getToken()
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` }
    const response = await doFetch(`${options.baseUrl ?? ''}${path}`, { method: 'GET', headers })
    if (response.ok) return await response.blob()
    if (response.status === 401 && token !== null) options.onUnauthorized?.()
    let data: unknown = null
    try { data = JSON.parse(await response.text()) } catch { data = null }
    throw new ApiError(data !== null && typeof (data as ApiErrorBody).message === 'string' ? data as ApiErrorBody : { statusCode: response.status, error: response.statusText, message: `Request failed (${response.status})` })
  }
  return {
    download,
    get: <T>(path: string) => request<T>('GET', path),
    post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
    put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
    patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
    delete: <T>(path: string) => request<T>('DELETE', path),
    upload: <T>(path: string, form: FormData) => request<T>('POST', path, form)
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
