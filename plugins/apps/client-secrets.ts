import { eq } from 'drizzle-orm'
import { apps } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { databaseNow } from '../../server/clock.ts'
import { hashSecret, newClientSecret, secretMatches } from './credentials.ts'
import type { AppRow } from './app-row.ts'
import { ownedApp } from './apps.ts'

/** A new client secret for the developer's app; only its hash is stored, the secret is shown once. */
export async function regenerateSecret (executor: Executor, developerId: string, appId: string): Promise<string> {
  const app = await ownedApp(executor, developerId, appId)
  const clientSecret = newClientSecret()
  await executor.update(apps).set({ clientSecretHash: hashSecret(clientSecret), updatedAt: databaseNow() }).where(eq(apps.id, app.id))
  return clientSecret
}

/** For the OAuth token exchange: the app whose client id and secret match, or null. Constant-time on the secret. */
export async function verifyClientCredentials (executor: Executor, clientId: string, clientSecret: string): Promise<AppRow | null> {
  const [app] = await executor.select().from(apps).where(eq(apps.clientId, clientId)).limit(1)
  const ok = secretMatches(clientSecret, app?.clientSecretHash ?? hashSecret('no-such-app'))
  return app !== undefined && ok ? app : null
}

export async function findByClientId (executor: Executor, clientId: string): Promise<AppRow | null> {
  const [app] = await executor.select().from(apps).where(eq(apps.clientId, clientId)).limit(1)
  return app ?? null
}
