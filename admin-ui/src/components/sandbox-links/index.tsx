import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import styles from './style.module.css'

/**
 * The developer's way into the admin of their sandbox business (DESIGN §16): they act as its merchant,
 * so they see their blocks, embeds and admin pages exactly as merchants will.
 */
export function SandboxLinks () {
  const { api } = useSession()
  const business = useResource<{ name: string, storefrontUrl: string }>('merchant-business', () => api.get('/merchant/business'))
  return (
    <nav class={`panel ${styles.links}`} aria-label='Your sandbox' data-testid='sandbox-links'>
      <strong>Your sandbox{business.data !== null ? `: ${business.data.name}` : ''}</strong>
      <a href='/admin/apps'>Installed apps</a>
      <a href='/admin/pages'>Pages &amp; theme editor</a>
      {business.data !== null && <a href={business.data.storefrontUrl} target='_blank' rel='noopener noreferrer'>Store ↗</a>}
    </nav>
  )
}
