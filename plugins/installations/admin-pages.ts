import { randomUUID } from 'node:crypto'
import { isNull } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import { decryptSecret } from '../../server/crypto.ts'
import { signJwtHs256, unixSeconds } from '../../server/signing.ts'
import type { BusinessRole, Permission } from '../../sdk/src/contract/staff.ts'
import { notFound } from './errors.ts'
import type { InstallationsContext } from './context.ts'
import { getForBusiness } from './lookups.ts'

/** Admin-page session tokens live 5 minutes, the most DESIGN §14 allows; the page asks for a fresh one. */
export const SESSION_TOKEN_SECONDS = 300

/**
 * A session token for one of the business's installations (DESIGN §12/§14): a JWT, HS256, keyed with
 * the installation's webhook secret, telling the app's backend which user of which business looks at
 * its admin page. `issuer` is the admin origin.
 */
/**
 * The admin page's session token (DESIGN §16): who acts (`sub`, their `role` in the business, OWNER or
 * STAFF, and their `permissions`, DESIGN §24) on which installation, for five minutes.
 */
export interface SessionTokenInput {
  businessId: string
  installationId: string
  userId: string
  role: BusinessRole
  permissions: readonly Permission[]
  issuer: string
}

export async function sessionToken (context: InstallationsContext, input: SessionTokenInput) {
  const installation = await getForBusiness(context.executor, input.businessId, input.installationId)
  const [app] = await context.apps.findByIds([installation.appId])
  if (app === undefined) throw notFound('installation_not_found', 'Installation')
  const iat = unixSeconds(context.clock.now())
  const exp = iat + SESSION_TOKEN_SECONDS
  const claims = {
    iss: input.issuer,
    aud: app.clientId,
    sub: input.userId,
    role: input.role,
    permissions: [...input.permissions],
    businessId: installation.businessId,
    installationId: installation.id,
    iat,
    exp,
    jti: randomUUID()
  }
  const secret = decryptSecret(installation.webhookSecretEncrypted, context.encryptionKey)
  return { sessionToken: signJwtHs256(claims, secret), expiresAt: new Date(exp * 1000).toISOString() }
}

/** Origins of the admin pages of every app installed anywhere (test installs too): the admin SPA's frame-src. */
export async function adminPageOrigins ({ executor, apps }: InstallationsContext): Promise<string[]> {
  const rows = await executor.selectDistinct({ appId: installations.appId }).from(installations).where(isNull(installations.uninstalledAt))
  const pages = await apps.activeExtensionsOf(rows.map((row) => row.appId), ['admin_page'])
  const origins = new Set<string>()
  for (const page of pages) {
    try { origins.add(new URL(String(page.definition.renderUrl)).origin) } catch {}
  }
  return [...origins].sort()
}
