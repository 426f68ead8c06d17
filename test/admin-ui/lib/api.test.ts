import t from 'tap'
import { ApiError, createApiClient } from '../../../admin-ui/src/lib/api.ts'

interface Call { url: string, init: RequestInit }

/** A fetch that records what it was asked and answers with `status` and `body` (text). */
function fakeFetch (status: number, body: string, statusText = '') {
  const calls: Call[] = []
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(url), init: init ?? {} })
    return new Response(body === '' ? null : body, { status, statusText })
  }
  return { calls, fetch: fetch as typeof globalThis.fetch }
}

t.test('a request carries the session and JSON', async (t) => {
  const { calls, fetch } = fakeFetch(200, '{"ok":true}')
  const api = createApiClient({ baseUrl: 'http://api.test', getToken: () => 'jwt-1', fetch })
  t.same(await api.patch('/developer/apps/a', { name: 'Shop' }), { ok: true })
  t.equal(calls[0].url, 'http://api.test/developer/apps/a')
  t.equal(calls[0].init.method, 'PATCH')
  t.same(calls[0].init.headers, { accept: 'application/json', authorization: 'Bearer jwt-1', 'content-type': 'application/json' })
  t.equal(calls[0].init.body, '{"name":"Shop"}')
})

t.test('no token, no authorization header; POST without a body sends {}', async (t) => {
  const { calls, fetch } = fakeFetch(200, '{}')
  const api = createApiClient({ getToken: () => null, fetch })
  await api.post('/auth/logout')
  t.same(calls[0].init.headers, { accept: 'application/json', 'content-type': 'application/json' })
  t.equal(calls[0].init.body, '{}')
})

t.test('an upload keeps its FormData, so the browser sets the multipart boundary', async (t) => {
  const { calls, fetch } = fakeFetch(201, '{"url":"/media/x.png"}')
  const api = createApiClient({ getToken: () => 'jwt', fetch })
  const form = new FormData()
  form.append('file', new Blob(['png']), 'x.png')
  await api.upload('/developer/apps/a/media', form)
  t.equal(calls[0].init.body, form)
  t.notOk('content-type' in (calls[0].init.headers as Record<string, string>))
})

t.test('an empty answer (204) is null', async (t) => {
  const { fetch } = fakeFetch(204, '')
  t.equal(await createApiClient({ getToken: () => 'jwt', fetch }).delete('/merchant/pages/about'), null)
})

t.test('an error answer becomes an ApiError with the error body', async (t) => {
  const body = { statusCode: 409, error: 'Conflict', message: 'App is in review', errors: [{ path: '/name', message: 'taken' }] }
  const { fetch } = fakeFetch(409, JSON.stringify(body))
  const error = await createApiClient({ getToken: () => 'jwt', fetch }).get('/x').catch((e: unknown) => e)
  t.ok(error instanceof ApiError)
  t.equal((error as ApiError).status, 409)
  t.equal((error as ApiError).message, 'App is in review')
  t.same((error as ApiError).body, body)
})

t.test('an error answer that is not the error format still gives a readable ApiError', async (t) => {
  const { fetch } = fakeFetch(502, '{"unexpected":1}', 'Bad Gateway')
  const error = await createApiClient({ getToken: () => null, fetch }).get('/x').catch((e: unknown) => e) as ApiError
  t.same(error.body, { statusCode: 502, error: 'Bad Gateway', message: 'Request failed (502)' })
})

t.test('a 401 to a request with a session calls onUnauthorized; without one it does not', async (t) => {
  let dropped = 0
  const body = JSON.stringify({ statusCode: 401, error: 'Unauthorized', message: 'Session expired' })
  const { fetch } = fakeFetch(401, body)
  let token: string | null = 'jwt'
  const api = createApiClient({ getToken: () => token, fetch, onUnauthorized: () => { dropped += 1 } })
  t.equal((await api.get('/auth/me').catch((e: ApiError) => e) as ApiError).status, 401)
  t.equal(dropped, 1)
  token = null
  t.equal((await api.post('/auth/login', {}).catch((e: ApiError) => e) as ApiError).status, 401)
  t.equal(dropped, 1, 'a failed sign-in is not an expired session')
})

t.test('a download carries the session and answers the body as a Blob; its errors are ApiErrors', async (t) => {
  const { calls, fetch } = fakeFetch(200, 'invoice_id,amount\ninv_1,100\n')
  const api = createApiClient({ getToken: () => 'jwt-2', fetch })
  const blob = await api.download('/developer/apps/a/earnings.csv')
  t.equal(await blob.text(), 'invoice_id,amount\ninv_1,100\n')
  t.same(calls[0].init.headers, { authorization: 'Bearer jwt-2' })
  const failing = fakeFetch(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'App not found', code: 'app_not_found' }))
  const error = await createApiClient({ getToken: () => 'jwt', fetch: failing.fetch }).download('/x').catch((e: unknown) => e) as ApiError
  t.equal(error.status, 404)
  t.equal(error.message, 'App not found')
})
