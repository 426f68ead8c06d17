import { useEffect, useRef } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import {
  ADMIN_INIT, ADMIN_SESSION_TOKEN, parseAdminFrameMessage, type AdminInitMessage, type AdminSessionTokenMessage
} from '../../../../sdk/src/iframe.ts'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import type { AdminPageLink } from '../../lib/admin-types.ts'
import type { Business as ContractBusiness } from '../../../../sdk/src/contract/resources.ts'

/** The spec's sandbox for admin pages: exactly these four grants. */
export const ADMIN_PAGE_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups'

/** What the page reads of the merchant's business (the contract's resource). */
type Business = Pick<ContractBusiness, 'id' | 'name' | 'locale'>

/** The iframe src: renderUrl with businessId and locale added as query parameters. */
export function adminPageSrc (page: AdminPageLink, business: Business): string {
  const src = new URL(page.renderUrl)
  src.searchParams.set('businessId', business.id)
  src.searchParams.set('locale', business.locale)
  return src.toString()
}

function AdminFrame ({ page, business, installationId }: { page: AdminPageLink, business: Business, installationId: string }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const { session, api } = useSession()
  const origin = new URL(page.renderUrl).origin
  // a signed token saying who is looking: the page's backend can trust it, unlike a businessId in the URL
  const sessionToken = async () => (await api.post<{ sessionToken: string }>(`/merchant/installations/${encodeURIComponent(installationId)}/session-token`)).sessionToken
  // posted to the page's own origin only, each time the frame (re)loads
  const init = async () => {
    const message: AdminInitMessage = {
      type: ADMIN_INIT, businessId: business.id, businessName: business.name, role: session?.user.role ?? 'MERCHANT', locale: business.locale, sessionToken: await sessionToken()
    }
    frame.current?.contentWindow?.postMessage(message, origin)
  }
  useEffect(() => {
    // only this frame's window, at its renderUrl origin, with a valid request, gets a fresh token
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== origin || parseAdminFrameMessage(event.data) === null) return
      void sessionToken().then((token) => {
        const reply: AdminSessionTokenMessage = { type: ADMIN_SESSION_TOKEN, sessionToken: token }
        frame.current?.contentWindow?.postMessage(reply, origin)
      }, () => {})
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [origin, installationId])
  return (
    <iframe
      ref={frame}
      title={page.title}
      src={adminPageSrc(page, business)}
      sandbox={ADMIN_PAGE_SANDBOX}
      onLoad={() => { void init().catch(() => {}) }}
      style={{ width: '100%', minHeight: '70vh', border: '1px solid var(--line)', borderRadius: '10px', background: '#fff' }}
    />
  )
}

/** /admin/apps/:installationId/pages/:pageId: an app's admin page inside the admin panel. */
export default function AdminAppPage () {
  const { params } = useRoute()
  const { api } = useSession()
  const business = useResource<Business>('merchant-business', () => api.get('/merchant/business'))
  return (
    <AdminShell>
      {(installs) => {
        const install = installs.find((i) => i.installationId === params.installationId)
        const page = install?.adminPages.find((p) => p.pageId === decodeURIComponent(params.pageId))
        if (install === undefined || page === undefined) return <section class='panel'><h1>Page not found</h1><p>This app page is not available. It may have been removed or the app uninstalled.</p></section>
        return (
          <section>
            <h1>{page.title} <span class='muted'>· {install.app.name}</span></h1>
            {business.error !== null && <div class='error' role='alert'>{business.error}</div>}
            {business.data !== null && <AdminFrame page={page} business={business.data} installationId={install.installationId} />}
          </section>
        )
      }}
    </AdminShell>
  )
}
