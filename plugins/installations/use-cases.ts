import type { Db, Tx } from '../../server/db/client.ts'
import type { Apps } from '../apps/index.ts'
import { notFound } from './errors.ts'
import type { InstallationRow } from './context.ts'
import type { InstallInput, Issued } from './lifecycle.ts'

/** What the use cases do with installations inside their transaction (the service's `in(tx)` view). */
interface InstallationsInTx {
  in: (tx: Tx) => {
    activeFor: (appId: string, businessId: string) => Promise<InstallationRow | null>
    getForBusiness: (businessId: string, installationId: string, lock?: boolean) => Promise<InstallationRow>
    install: (input: InstallInput) => Promise<Issued>
    uninstall: (installation: InstallationRow) => Promise<unknown>
  }
}

/**
 * The installations' use cases that span two capabilities in one transaction: the app is read (and
 * locked) through apps' port and the installation written through installations', so either both hold
 * or neither does. The routes call these by name instead of composing transactions themselves.
 */
export interface UseCaseDeps {
  db: Db
  apps: Pick<Apps, 'in'>
  installations: InstallationsInTx
}

/** Installs the developer's own app on their sandbox business, replacing an earlier test install (its token revoked). */
export async function testInstall ({ db, apps, installations }: UseCaseDeps, developerId: string, appId: string, sandboxId: string): Promise<Issued> {
  return await db.transaction(async (tx) => {
    const app = await apps.in(tx).ownedApp(developerId, appId, true)
    const earlier = await installations.in(tx).activeFor(app.id, sandboxId)
    if (earlier !== null) await installations.in(tx).uninstall(earlier)
    return await installations.in(tx).install({ app, businessId: sandboxId, scopes: app.scopes, userId: developerId, isTestInstall: true })
  })
}

/** Removes the test install of the developer's own app from their sandbox (a merchant uninstall's effects); 404 when there is none. */
export async function testUninstall ({ db, apps, installations }: UseCaseDeps, developerId: string, appId: string, sandboxId: string): Promise<string> {
  return await db.transaction(async (tx) => {
    const app = await apps.in(tx).ownedApp(developerId, appId, true)
    const installation = await installations.in(tx).activeFor(app.id, sandboxId)
    if (installation === null) throw notFound('installation_not_found', 'Test install')
    await installations.in(tx).uninstall(installation)
    return installation.id
  })
}

/** The merchant uninstalls one of their business's installations (another business's is a 404). */
export async function uninstallFromBusiness ({ db, installations }: Pick<UseCaseDeps, 'db' | 'installations'>, businessId: string, installationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const installation = await installations.in(tx).getForBusiness(businessId, installationId, true)
    await installations.in(tx).uninstall(installation)
  })
}
