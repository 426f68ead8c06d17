import { and, eq, isNull, sql } from 'drizzle-orm'
import { appExtensions, apps, installations } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import type { SignatureScheme } from '../../sdk/src/contract/events.ts'
import { DOMAIN_API_VERSION, isApiVersion, type ApiVersion } from '../../sdk/src/contract/api-versions.ts'
import { HOOK_DEFAULTS, HOOK_SCOPES, type HookPoint } from '../apps/manifest/schemas.ts'

export interface ActiveHook {
  appId: string
  /** The app's name, for what the customer is told (the delivery fee's source). */
  appName: string
  installationId: string
  url: string
  /** The manifest hook's path (appended to the webhook URL; a relay appends it to the developer's local URL). */
  path: string
  timeout: number
  priority: number
  failurePolicy: 'open' | 'closed'
  secretEncrypted: string
  /** The app's webhookSignatureScheme: hook calls are signed as its webhooks are. */
  signatureScheme: SignatureScheme
  /** The installation's pinned API version: the payload is shaped for it, its answer read in it. */
  apiVersion: ApiVersion
}

/** A hook's URL: the app's webhook URL with the hook's path appended. */
export function hookUrl (webhookUrl: string, path: string): string {
  return `${webhookUrl.replace(/\/+$/, '')}${path}`
}

/** Every active hook of the business, by hook point, in call order: one query per checkout step. */
export async function hooksOf (executor: Executor, businessId: string): Promise<Map<HookPoint, ActiveHook[]>> {
  const rows = await executor.select({
    appId: apps.id, appName: apps.name, installationId: installations.id, webhookUrl: apps.webhookUrl, definition: appExtensions.definition,
    hookPoint: appExtensions.key, grantedScopes: installations.grantedScopes, secretEncrypted: installations.webhookSecretEncrypted,
    signatureScheme: apps.webhookSignatureScheme, apiVersion: installations.apiVersion
  })
    .from(appExtensions)
    .innerJoin(installations, eq(installations.appId, appExtensions.appId))
    .innerJoin(apps, eq(apps.id, appExtensions.appId))
    .where(and(
      eq(installations.businessId, businessId), isNull(installations.uninstalledAt),
      eq(appExtensions.kind, 'hook'), eq(appExtensions.isActive, true)
    ))
    .orderBy(sql`coalesce((${appExtensions.definition}->>'priority')::int, ${HOOK_DEFAULTS.priority})`, installations.installedAt)
  const byPoint = new Map<HookPoint, ActiveHook[]>()
  for (const row of rows) {
    const hookPoint = row.hookPoint as HookPoint
    // the installation must hold the scope the hook point needs (a pending re-consent does not count)
    if (row.webhookUrl === null || !row.grantedScopes.includes(HOOK_SCOPES[hookPoint])) continue
    const definition = row.definition as { url: string, timeout?: number, priority?: number, failurePolicy?: 'open' | 'closed' }
    byPoint.set(hookPoint, [...(byPoint.get(hookPoint) ?? []), {
      appId: row.appId,
      appName: row.appName,
      installationId: row.installationId,
      url: hookUrl(row.webhookUrl as string, definition.url),
      path: definition.url,
      timeout: Math.min(definition.timeout ?? HOOK_DEFAULTS.timeout, HOOK_DEFAULTS.maxTimeout),
      priority: definition.priority ?? HOOK_DEFAULTS.priority,
      failurePolicy: definition.failurePolicy ?? 'open',
      secretEncrypted: row.secretEncrypted,
      signatureScheme: row.signatureScheme,
      apiVersion: isApiVersion(row.apiVersion) ? row.apiVersion : DOMAIN_API_VERSION
    }])
  }
  return byPoint
}
