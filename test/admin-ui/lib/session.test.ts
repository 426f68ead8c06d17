import t, { type Test } from 'tap'
import { installDom } from '../dom.ts'

installDom()
const { h, render } = await import('preact')
const { act } = await import('preact/test-utils')
const { SessionProvider, useSession } = await import('../../../admin-ui/src/lib/use-session.tsx')
type Session = ReturnType<typeof useSession>

const STORAGE_KEY = 'app-platform.session'
const user = { id: 'usr_1', email: 'ana@example.com', name: 'Ana', role: 'MERCHANT' as const, businessId: 'biz_1' }

/** Renders the provider with a probe that exposes the latest session value. */
async function mount () {
  const seen: { current: Session | null } = { current: null }
  function Probe () { seen.current = useSession(); return null }
  const root = document.createElement('div')
  await act(async () => { render(h(SessionProvider, null, h(Probe, null)), root) })
  return { seen, unmount: async () => { await act(async () => { render(null, root) }) } }
}

/** A fetch that answers every request with `status` and records the requests. */
function answer (t: Test, status: number, body: unknown = {}) {
  const requests: Array<{ url: string, method: string, authorization: string | undefined }> = []
  const real = globalThis.fetch
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, method: init.method ?? 'GET', authorization: (init.headers as Record<string, string>).authorization })
    return new Response(JSON.stringify(status >= 400 ? { statusCode: status, error: 'x', message: 'refused' } : body), { status })
  }) as typeof fetch
  t.teardown(() => { globalThis.fetch = real })
  return requests
}

t.beforeEach(() => { localStorage.clear() })

t.test('signIn keeps the session in localStorage, and the API client sends its token', async (t) => {
  const requests = answer(t, 200, { ok: true })
  const { seen, unmount } = await mount()
  t.equal(seen.current?.session, null)
  await act(async () => { seen.current?.signIn({ token: 'jwt-a', user }) })
  t.same(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null'), { token: 'jwt-a', user })
  t.equal(seen.current?.session?.user.email, 'ana@example.com')
  await seen.current?.api.get('/auth/me')
  t.equal(requests[0].authorization, 'Bearer jwt-a')
  await unmount()
})

t.test('a stored session is picked up at start; unreadable storage counts as signed out', async (t) => {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ token: 'jwt-b', user }))
  const first = await mount()
  t.equal(first.seen.current?.session?.token, 'jwt-b')
  await first.unmount()
  localStorage.setItem(STORAGE_KEY, '{not json')
  const second = await mount()
  t.equal(second.seen.current?.session, null)
  await second.unmount()
})

t.test('a 401 on a signed-in request forgets the session and marks it expired', async (t) => {
  answer(t, 401)
  const { seen, unmount } = await mount()
  await act(async () => { seen.current?.signIn({ token: 'jwt-c', user }) })
  await act(async () => { await seen.current?.api.get('/merchant/orders').catch(() => {}) })
  t.equal(seen.current?.session, null)
  t.equal(seen.current?.expired, true)
  t.equal(localStorage.getItem(STORAGE_KEY), null)
  await act(async () => { seen.current?.signIn({ token: 'jwt-d', user }) })
  t.equal(seen.current?.expired, false, 'signing in again clears the mark')
  await unmount()
})

t.test('signOut revokes the session on the server, and forgets it even when that fails', async (t) => {
  for (const status of [200, 500]) {
    const requests = answer(t, status)
    const { seen, unmount } = await mount()
    await act(async () => { seen.current?.signIn({ token: 'jwt-e', user }) })
    await act(async () => { await seen.current?.signOut() })
    t.same(requests.map((r) => [r.method, r.url, r.authorization]), [['POST', '/auth/logout', 'Bearer jwt-e']], `server answered ${status}`)
    t.equal(seen.current?.session, null)
    t.equal(localStorage.getItem(STORAGE_KEY), null)
    await unmount()
  }
})

t.test('useSession outside the provider is a programming error', async (t) => {
  function Lonely () { useSession(); return null }
  t.throws(() => { render(h(Lonely, null), document.createElement('div')) }, /outside SessionProvider/)
})
