import { isDeepStrictEqual } from 'node:util'
import { and, eq, isNull } from 'drizzle-orm'
import { installations, type BlockInstance } from '../../server/db/schema/index.ts'
import { newId } from '../../server/db/ids.ts'
import type { ErrorItem } from '../../server/http-errors.ts'
import { badRequest, notFound } from './errors.ts'
import { activeInstallations, embedState, settingsProblems, type ActiveInstallation, type Settings } from './extensions.ts'
import { extensionsOf, type InstallationsContext } from './context.ts'
import type { EmbedsBody, PageBlocksBody } from './schemas.ts'
import { databaseNow } from '../../server/clock.ts'
import { recordActivity } from '../../server/activity.ts'

/** The business's active installations with their apps' active blocks and embeds (the storefront's). */
export async function activeExtensions (context: InstallationsContext, businessId: string) {
  return await activeInstallations(context.executor, extensionsOf(context), businessId)
}

/** 400 listing every problem: `errors` for forms (path and code), `problems` as sentences. */
function invalid (what: string, items: ErrorItem[]) {
  const problems = items.map((item) => `${item.path}: ${item.message}`)
  return badRequest('validation_failed', `Invalid ${what}: ${problems.join('; ')}`, { errors: items.map((item) => ({ in: 'body', ...item })), problems })
}

/**
 * The blocks a merchant places on a page, checked: each one must name an active installation of this
 * business (another business's is reported like an unknown one) and an active block of its app;
 * settings follow the block's settingsSchema (defaultConfig when omitted). A block of `current` whose
 * definition a manifest sync deactivated may stay as it is (DESIGN §16: kept in the page data, not
 * rendered), so a page can be saved without removing it. 400 lists every problem.
 */
export async function checkBlocks (context: InstallationsContext, businessId: string, body: PageBlocksBody,
  current: BlockInstance[] = []): Promise<BlockInstance[]> {
  const named = [...new Set(body.blocks.map((b) => b.installationId))]
  const active = await activeInstallations(context.executor, extensionsOf(context), businessId, named)
  const problems: ErrorItem[] = []
  const seen = new Set<string>()
  const blocks: BlockInstance[] = body.blocks.map((input, index) => {
    const path = `/blocks/${index}`
    const id = input.id ?? newId('blk')
    if (seen.has(id)) problems.push({ path: `${path}/id`, message: `duplicate block id "${id}"`, code: 'block_id_duplicate' })
    seen.add(id)
    const installation = active.get(input.installationId)
    const definition = installation?.blocks.get(input.blockType)
    const kept = current.find((block) => block.id === input.id && block.installationId === input.installationId && block.blockType === input.blockType)
    const unchanged = kept !== undefined && (input.settings === undefined || isDeepStrictEqual(input.settings, kept.settings))
    if (installation !== undefined && definition === undefined && unchanged) return kept
    if (installation === undefined) {
      problems.push({ path: `${path}/installationId`, message: `no active installation "${input.installationId}" on this business`, code: 'installation_not_found' })
    } else if (definition === undefined) {
      problems.push({ path: `${path}/blockType`, message: `"${input.blockType}" is not an active block of this app`, code: 'block_type_inactive' })
    }
    const settings = input.settings ?? definition?.defaultConfig ?? {}
    if (definition !== undefined) problems.push(...settingsProblems(definition.settingsSchema, settings, `${path}/settings`))
    return { id, installationId: input.installationId, blockType: input.blockType, settings }
  })
  if (problems.length > 0) throw invalid('blocks', problems)
  return blocks
}

function embedsView (installation: ActiveInstallation) {
  return {
    installationId: installation.id,
    embeds: [...installation.embeds.values()].map((embed) => ({
      embedType: embed.embedType,
      name: embed.name,
      description: embed.description ?? '',
      kind: embed.kind,
      position: embed.position,
      ...embedState(installation, embed),
      settingsSchema: embed.settingsSchema ?? null,
      defaultConfig: embed.defaultConfig
    }))
  }
}

async function installationOf (context: InstallationsContext, businessId: string, installationId: string): Promise<ActiveInstallation> {
  const installation = (await activeInstallations(context.executor, extensionsOf(context), businessId, [installationId])).get(installationId)
  if (installation === undefined) throw notFound('installation_not_found', 'Installation')
  return installation
}

/** The app's active embeds with this installation's configuration (disabled with defaultConfig until set). */
export async function getEmbeds (context: InstallationsContext, businessId: string, installationId: string) {
  return embedsView(await installationOf(context, businessId, installationId))
}

/**
 * Enables, disables and configures embeds; those not named keep their configuration, and so do
 * deactivated embeds (their data is kept until the app brings them back).
 */
export async function putEmbeds (context: InstallationsContext, businessId: string, installationId: string, body: EmbedsBody) {
  // the app's extension definitions first: on the embedded database a read outside the transaction would wait for it
  const current = await installationOf(context, businessId, installationId)
  return await context.executor.transaction(async (tx) => {
    const [locked] = await tx.select({ id: installations.id, embedSettings: installations.embedSettings }).from(installations)
      .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId), isNull(installations.uninstalledAt))).for('update')
    if (locked === undefined) throw notFound('installation_not_found', 'Installation')
    const installation: ActiveInstallation = { ...current, embedSettings: locked.embedSettings }
    const problems: ErrorItem[] = []
    const next: Record<string, { enabled: boolean, settings: Settings }> = { ...installation.embedSettings }
    for (const [embedType, input] of Object.entries(body.embeds)) {
      const embed = installation.embeds.get(embedType)
      if (embed === undefined) {
        problems.push({ path: `/embeds/${embedType}`, message: `"${embedType}" is not an active embed of this app`, code: 'embed_type_inactive' })
        continue
      }
      const settings = input.settings ?? embedState(installation, embed).settings
      problems.push(...settingsProblems(embed.settingsSchema, settings, `/embeds/${embedType}/settings`))
      next[embedType] = { enabled: input.enabled, settings }
    }
    if (problems.length > 0) throw invalid('embeds', problems)
    await tx.update(installations).set({ embedSettings: next, updatedAt: databaseNow() }).where(eq(installations.id, installationId))
    await recordActivity(tx, {
      businessId, action: 'app.embeds_changed', resource: { type: 'app', id: current.appId },
      changes: { installationId, embeds: Object.fromEntries(Object.entries(body.embeds).map(([type, input]) => [type, { enabled: input.enabled }])) }
    })
    return embedsView({ ...installation, embedSettings: next })
  })
}

/**
 * The blocks a merchant may place: every active block of the business's active installations, with
 * what the picker shows (name, description, icon, category: the block's own, else its app's).
 */
export async function availableBlocks (context: InstallationsContext, businessId: string) {
  const active = [...(await activeInstallations(context.executor, extensionsOf(context), businessId)).values()]
  const appsById = new Map((await context.apps.findByIds([...new Set(active.map((i) => i.appId))])).map((app) => [app.id, app]))
  return active.flatMap((installation) => {
    const app = appsById.get(installation.appId)
    if (app === undefined) return []
    return [...installation.blocks.values()].map((block) => {
      const extra = block as unknown as { description?: string, iconName?: string, category?: string }
      return {
        installationId: installation.id,
        app: { id: app.id, name: app.name, iconUrl: app.iconUrl },
        blockType: block.blockType,
        name: block.name,
        description: extra.description ?? '',
        iconName: extra.iconName ?? null,
        category: extra.category ?? app.category,
        settingsSchema: block.settingsSchema ?? null,
        defaultConfig: block.defaultConfig
      }
    })
  })
}
