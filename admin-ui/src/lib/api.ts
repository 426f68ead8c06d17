/** One problem of a 400 that lists several (manifest validation). */
export interface ApiProblem { path: string, message: string }

/** The error body every API error has; some 400s add every problem in `errors`. */
export interface ApiErrorBody { statusCode: number, error: string, message: string, errors?: ApiProblem[] }

export class ApiError extends Error {
  readonly status: number
  readonly body: ApiErrorBody
  constructor (body: ApiErrorBody) {
    super(body.message)
    this.status = body.statusCode
    this.body = body
  }
}

export interface ApiClientOptions {
  baseUrl?: string
  getToken: () => string | null
  fetch?: typeof fetch
  /** Called on a 401 to a request that carried a session (expired or signed out), so the app can drop it. */
  onUnauthorized?: () => void
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
      throw new ApiError(data !== null && typeof data.message === 'string' ? data : { statusCode: response.status, error: response.statusText, message: `Request failed (${response.status})` })
    }
    return data as T
  }
  return {
    get: <T>(path: string) => request<T>('GET', path),
    post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
    put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
    patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
    delete: <T>(path: string) => request<T>('DELETE', path),
    upload: <T>(path: string, form: FormData) => request<T>('POST', path, form)
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
