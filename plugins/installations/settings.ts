import { eq } from 'drizzle-orm'
import { installations } from '../../server/db/schema/index.ts'
import { databaseNow } from '../../server/clock.ts'
import { changedFields, recordActivity } from '../../server/activity.ts'
import { validationItems } from '../../server/validation.ts'
import { settingsValidator } from '../apps/service.ts'
import { badRequest } from './errors.ts'
import type { InstallationsContext } from './context.ts'
import { getForBusiness } from './lookups.ts'

/** The manifest's top-level settingsSchema of the installation's app, or null when it declares none. */
export async function settingsOf ({ executor, apps }: InstallationsContext, businessId: string, installationId: string) {
  const installation = await getForBusiness(executor, businessId, installationId)
  return { settings: installation.settings, settingsSchema: await apps.settingsSchemaOf(installation.appId) }
}

/** Replaces the app settings, validated against the settingsSchema (400 lists every problem). */
export async function putSettings ({ executor, apps }: InstallationsContext, businessId: string, installationId: string, settings: Record<string, unknown>) {
  const installation = await getForBusiness(executor, businessId, installationId)
  const schema = await apps.settingsSchemaOf(installation.appId)
  if (schema === null) throw badRequest('settings_none', 'This app has no settings')
  const validate = settingsValidator(schema)
  if (!validate(settings)) {
    const items = validationItems(validate.errors ?? []).map((item) => ({ ...item, path: `/settings${item.path}` }))
    throw badRequest('validation_failed', `Invalid settings: ${items.map((item) => `${item.path.slice(1)} ${item.message}`).join('; ')}`, { errors: items })
  }
  await executor.transaction(async (tx) => {
    await tx.update(installations).set({ settings, updatedAt: databaseNow() }).where(eq(installations.id, installation.id))
    // a setting left out of the new ones is shown as changed to null
    const cleared = Object.fromEntries(Object.keys(installation.settings).map((key) => [key, null]))
    await recordActivity(tx, {
      businessId, action: 'app.settings_changed', resource: { type: 'app', id: installation.appId },
      changes: { installationId: installation.id, settings: changedFields(installation.settings, { ...cleared, ...settings }) }
    })
  })
  return { settings, settingsSchema: schema }
}
