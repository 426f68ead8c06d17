import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import {
  ADMIN_CONFIRM_CHARGE, ADMIN_INIT, ADMIN_NAVIGATE, ADMIN_READY, ADMIN_RESIZE, ADMIN_SESSION_TOKEN, ADMIN_SESSION_TOKEN_REQUEST, ADMIN_TOAST, MIN_ADMIN_HEIGHT,
  clampAdminHeight, parseAdminFrameMessage, type AdminInitMessage, type AdminSessionTokenMessage, type ToastKind
} from '../../../../sdk/src/iframe.ts'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { AdminPageLink, InstalledApp } from '../../lib/admin-types.ts'
import type { BusinessRole } from '../../lib/staff-types.ts'
import type { Business as ContractBusiness } from '../../../../sdk/src/contract/resources.ts'
import styles from './style.module.css'

/** The spec's sandbox for admin pages: exactly these four grants. */
export const ADMIN_PAGE_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups'
/**
 * Neither service:ready nor the frame's load within this long → the error state (DESIGN §14). A page
 * that loads but never sends service:ready follows only the spec (service:init) and is not down (§21).
 */
export const READY_TIMEOUT_MS = 5000
const TOAST_MS = 6000

/** What the page reads of the merchant's business (the contract's resource). */
type Business = Pick<ContractBusiness, 'id' | 'name' | 'locale'>

/** The iframe src: renderUrl with businessId and locale added as query parameters. */
export function adminPageSrc (page: AdminPageLink, business: Business): string {
  const src = new URL(page.renderUrl)
  src.searchParams.set('businessId', business.id)
  src.searchParams.set('locale', business.locale)
  return src.toString()
}

interface Toast { id: number, message: string, kind: ToastKind }

/**
 * The admin-page bridge, host side (DESIGN §14): every message must come from this frame's window at its
 * renderUrl origin and pass the SDK's validator; answers go to that origin only.
 */
function AdminFrame ({ page, business, install, role }: { page: AdminPageLink, business: Business, install: InstalledApp, role: BusinessRole }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const { api } = useSession()
  const { route } = useLocation()
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading')
  const [height, setHeight] = useState<number | null>(null)
  const [toasts, setToasts] = useState<Toast[]>([])
  const [attempt, setAttempt] = useState(0)
  const origin = new URL(page.renderUrl).origin
  const installationId = install.installationId
  // a signed token saying who is looking: the page's backend can trust it, unlike a businessId in the URL
  const sessionToken = async () => (await api.post<{ sessionToken: string }>(`/merchant/installations/${encodeURIComponent(installationId)}/session-token`)).sessionToken
  const post = (message: AdminInitMessage | AdminSessionTokenMessage) => frame.current?.contentWindow?.postMessage(message, origin)
  // role: who acts on this business, its OWNER or a STAFF member (DESIGN §24), never the account's kind
  const init = async () => {
    post({
      type: ADMIN_INIT, businessId: business.id, businessName: business.name, role, locale: business.locale, sessionToken: await sessionToken()
    })
  }

  // a layout effect: the listener is in place in the task that adds the frame, before the frame can run its
  // script; a page that loads fast (service:ready, service:resize at once) was otherwise heard by nobody
  useLayoutEffect(() => {
    setState('loading')
    setHeight(null)
    const timer = setTimeout(() => setState((current) => current === 'loading' ? 'error' : current), READY_TIMEOUT_MS)
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== origin) return
      const message = parseAdminFrameMessage(event.data)
      if (message === null) return
      switch (message.type) {
        case ADMIN_READY:
          clearTimeout(timer)
          setState('ready')
          break
        case ADMIN_RESIZE:
          setHeight(clampAdminHeight(message.height))
          break
        case ADMIN_TOAST: {
          const toast = { id: Date.now() + Math.random(), message: message.message, kind: message.kind }
          setToasts((list) => [...list.slice(-2), toast])
          setTimeout(() => setToasts((list) => list.filter((t) => t.id !== toast.id)), TOAST_MS)
          break
        }
        case ADMIN_NAVIGATE:
          // only another page of the same installation; anything else is ignored
          if (install.adminPages.some((p) => p.pageId === message.pageId)) route(`/admin/apps/${installationId}/pages/${encodeURIComponent(message.pageId)}`)
          break
        case ADMIN_CONFIRM_CHARGE:
          // only a charge this installation asked for, and only the admin's own approval screen: never a URL of the app's
          void api.get<{ installationId: string }>(`/merchant/charges/${encodeURIComponent(message.chargeId)}`).then((charge) => {
            if (charge.installationId === installationId) route(`/admin/charges/${encodeURIComponent(message.chargeId)}`)
          }, () => {})
          break
        case ADMIN_SESSION_TOKEN_REQUEST:
          void sessionToken().then((token) => post({ type: ADMIN_SESSION_TOKEN, sessionToken: token }), () => {})
          break
      }
    }
    window.addEventListener('message', onMessage)
    return () => { clearTimeout(timer); window.removeEventListener('message', onMessage) }
  }, [origin, installationId, page.pageId, attempt])

  return (
    <div class={styles.host}>
      {state === 'loading' && <p class={`muted ${styles.state}`} aria-busy='true' data-testid='page-loading'>Loading {page.title}…</p>}
      {state === 'error' && (
        <div class='error' role='alert' data-testid='page-error'>
          {install.app.name} did not answer: its page may be down or out of date.{' '}
          <button type='button' class='secondary' onClick={() => setAttempt(attempt + 1)}>Try again</button>
        </div>
      )}
      <div class={styles.toasts} aria-live='polite'>
        {toasts.map((toast) => <div key={toast.id} class={`${styles.toast} ${toast.kind === 'error' ? styles.toastError : ''}`} role={toast.kind === 'error' ? 'alert' : 'status'} data-testid='toast'>{toast.message}</div>)}
      </div>
      <iframe
        key={`${page.pageId}-${attempt}`}
        ref={frame}
        class={styles.frame}
        title={page.title}
        src={adminPageSrc(page, business)}
        sandbox={ADMIN_PAGE_SANDBOX}
        onLoad={() => {
          setState((current) => current === 'loading' ? 'ready' : current)
          void init().catch(() => {})
        }}
        style={{ height: `${height ?? Math.max(MIN_ADMIN_HEIGHT, 560)}px` }}
      />
    </div>
  )
}

/** /admin/apps/:installationId/pages/:pageId: an app's admin page inside the admin panel. */
export default function AdminAppPage () {
  const { params } = useRoute()
  const { api } = useSession()
  const business = useResource<Business>('merchant-business', () => api.get('/merchant/business'))
  return (
    <AdminShell>
      {(installs, _reload, { access }) => {
        const install = installs.find((i) => i.installationId === params.installationId)
        const page = install?.adminPages.find((p) => p.pageId === decodeURIComponent(params.pageId))
        if (install === undefined || page === undefined) return <section class='panel'><h1>Page not found</h1><p>This app page is not available. It may have been removed or the app uninstalled.</p></section>
        return (
          <section>
            <h1>{page.title} <span class='muted'>· {install.app.name}</span></h1>
            {business.error !== null && <div class='error' role='alert'>{business.error}</div>}
            {business.data !== null && <AdminFrame page={page} business={business.data} install={install} role={access.role ?? 'OWNER'} />}
          </section>
        )
      }}
    </AdminShell>
  )
}
