import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import type { Envelope } from '../../lib/types.ts'
import { ErrorMessage } from '../states/index.tsx'

interface CliToken { id: string, name: string, createdAt: string, expiresAt: string, lastUsedAt: string | null }

/** The developer's CLI tokens (from `app-platform login`), each revocable at once. */
export function CliTokens () {
  const { api } = useSession()
  const tokens = useResource<Envelope<CliToken>>('/developer/cli-tokens', () => api.get('/developer/cli-tokens'))
  const revoke = useAction()

  async function revokeToken (id: string) {
    // 204: no body, so the call is mapped to `true` to tell success from run()'s null
    if (await revoke.run(async () => { await api.delete(`/developer/cli-tokens/${encodeURIComponent(id)}`); return true }) === true) tokens.reload()
  }

  return (
    <section data-testid='cli-tokens'>
      <h2>CLI tokens</h2>
      <p class='muted'>Signed in with <code>app-platform login</code>; each reaches your portal and console for 30 days.</p>
      <ErrorMessage message={tokens.error ?? revoke.error} />
      {tokens.data !== null && (tokens.data.data.length === 0
        ? <p class='muted'>No CLI is signed in.</p>
        : (
          <table>
            <thead><tr><th>Device</th><th>Signed in</th><th>Last used</th><th>Expires</th><th /></tr></thead>
            <tbody>
              {tokens.data.data.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td class='muted'>{formatDate(token.createdAt)}</td>
                  <td class='muted'>{token.lastUsedAt === null ? 'never' : formatDate(token.lastUsedAt)}</td>
                  <td class='muted'>{formatDate(token.expiresAt)}</td>
                  <td><button class='secondary' disabled={revoke.busy} onClick={() => { void revokeToken(token.id) }}>Revoke</button></td>
                </tr>
              ))}
            </tbody>
          </table>
          ))}
    </section>
  )
}
