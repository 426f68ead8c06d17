import { and, desc, eq, isNotNull, lte } from 'drizzle-orm'
import { installations, type PreviousSetup } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { databaseNow } from '../../server/clock.ts'
import type { RemovedBlock } from '../../server/db/schema/index.ts'
import type { BlockPlacement, CommerceService } from '../commerce/service.ts'
import { conflict, notFound } from './errors.ts'
import { activeInstallations, settingsProblems, type ActiveInstallation, type Settings } from './extensions.ts'
import { extensionsOf, type InstallationRow, type InstallationsContext } from './context.ts'
import { getForBusiness } from './lookups.ts'
import { MAX_PAGE_BLOCKS, type PreviousSetupView, type SetupItem, type SetupSkip } from './schemas.ts'
import type { Clock } from '../../server/clock.ts'

type Status = PreviousSetupView['status']

/** What an uninstall records: null when the merchant had set nothing up (no offer is worth making). */
export function recordSetup (row: InstallationRow, removed: RemovedBlock[], names: Record<string, string>): PreviousSetup | null {
  const embeds = row.embedSettings
  if (Object.keys(row.settings).length === 0 && Object.keys(embeds).length === 0 && removed.length === 0) return null
  return { settings: row.settings, embeds, blocks: removed, names, resolution: null }
}

/**
 * The setup offered to an installation: the newest one recorded at an uninstall of the same app on
 * the same business before this installation began (an older one is superseded by it).
 */
async function previousOf (executor: Executor, installation: InstallationRow, lock = false) {
  const query = executor.select({ id: installations.id, uninstalledAt: installations.uninstalledAt, previousSetup: installations.previousSetup })
    .from(installations)
    .where(and(eq(installations.appId, installation.appId), eq(installations.businessId, installation.businessId),
      isNotNull(installations.previousSetup), lte(installations.uninstalledAt, installation.installedAt)))
    .orderBy(desc(installations.uninstalledAt)).limit(1)
  const [row] = lock ? await query.for('update') : await query
  if (row?.previousSetup == null || row.uninstalledAt === null) return null
  return { id: row.id, uninstalledAt: row.uninstalledAt, setup: row.previousSetup }
}

function statusOf (setup: PreviousSetup | null): Status {
  return setup === null ? 'NONE' : setup.resolution?.outcome ?? 'OFFERED'
}

/** The ids of these installations that have a previous setup on offer (the installations list's flag). */
export async function offeredSetups (executor: Executor, businessId: string, rows: InstallationRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set()
  const recorded = await executor.select({ appId: installations.appId, uninstalledAt: installations.uninstalledAt, previousSetup: installations.previousSetup })
    .from(installations).where(and(eq(installations.businessId, businessId), isNotNull(installations.previousSetup)))
    .orderBy(desc(installations.uninstalledAt))
  const offered = new Set<string>()
  for (const row of rows) {
    const newest = recorded.find((r) => r.appId === row.appId && r.uninstalledAt !== null && r.uninstalledAt <= row.installedAt)
    if (newest !== undefined && statusOf(newest.previousSetup) === 'OFFERED') offered.add(row.id)
  }
  return offered
}

interface Definitions { current: ActiveInstallation, settingsSchema: Settings | null }
interface PageFacts { id: string, slug: string, title: string, blockCount: number }
interface Plan { items: SetupItem[], settings: Settings | null, embeds: ActiveInstallation['embedSettings'], blocks: Array<{ item: SetupItem, placement: BlockPlacement }> }

const skip = (code: SetupSkip['code'], message: string): SetupSkip => ({ code, message })
const firstProblem = (problems: Array<{ path: string, message: string }>) => `${problems[0].path.replace(/^\/settings/, 'settings')}: ${problems[0].message}`

/**
 * What of `setup` still matches the app's current definitions: app settings that validate against the
 * current settingsSchema, embeds and blocks whose handle is still an active extension with settings that
 * validate, blocks whose page still exists (and has room). Everything else is listed with why.
 */
function planRestore (setup: PreviousSetup, { current, settingsSchema }: Definitions, pages: Map<string, PageFacts>): Plan {
  const items: SetupItem[] = []
  let settings: Settings | null = null
  if (Object.keys(setup.settings).length > 0) {
    const item: SetupItem = { kind: 'settings', handle: null, name: 'App settings', enabled: null, page: null, position: null, skipped: null }
    if (settingsSchema === null) item.skipped = skip('settings_gone', 'The app no longer has settings')
    else {
      const problems = settingsProblems(settingsSchema, setup.settings, '/settings')
      if (problems.length > 0) item.skipped = skip('settings_invalid', `No longer valid for the app: ${firstProblem(problems)}`)
      else settings = setup.settings
    }
    items.push(item)
  }
  const embeds: ActiveInstallation['embedSettings'] = {}
  for (const [embedType, state] of Object.entries(setup.embeds)) {
    const embed = current.embeds.get(embedType)
    const item: SetupItem = { kind: 'embed', handle: embedType, name: embed?.name ?? setup.names?.[`embed:${embedType}`] ?? embedType, enabled: state.enabled, page: null, position: null, skipped: null }
    if (embed === undefined) item.skipped = skip('extension_gone', 'The app no longer has this embed')
    else {
      const problems = settingsProblems(embed.settingsSchema, state.settings, '/settings')
      if (problems.length > 0) item.skipped = skip('settings_invalid', `Its settings no longer fit the embed: ${firstProblem(problems)}`)
      else embeds[embedType] = state
    }
    items.push(item)
  }
  const counts = new Map([...pages.values()].map((page) => [page.id, page.blockCount]))
  const blocks: Plan['blocks'] = []
  // recorded page by page in position order, so each block lands where it stood among those restored before it
  for (const placement of setup.blocks) {
    const definition = current.blocks.get(placement.block.blockType)
    const page = pages.get(placement.pageId)
    const item: SetupItem = {
      kind: 'block', handle: placement.block.blockType, name: definition?.name ?? setup.names?.[`block:${placement.block.blockType}`] ?? placement.block.blockType,
      enabled: null,
      page: { id: placement.pageId, slug: page?.slug ?? placement.slug, title: page?.title ?? placement.slug }, position: placement.position, skipped: null
    }
    items.push(item)
    if (definition === undefined) { item.skipped = skip('extension_gone', 'The app no longer has this block'); continue }
    const problems = settingsProblems(definition.settingsSchema, placement.block.settings, '/settings')
    if (problems.length > 0) { item.skipped = skip('settings_invalid', `Its settings no longer fit the block: ${firstProblem(problems)}`); continue }
    if (page === undefined) { item.skipped = skip('page_gone', `The page "${placement.slug}" no longer exists`); continue }
    const count = counts.get(page.id) ?? 0
    if (count >= MAX_PAGE_BLOCKS) { item.skipped = skip('page_full', `The page "${page.title}" has no room for another block`); continue }
    counts.set(page.id, count + 1)
    item.position = Math.min(placement.position, count)
    blocks.push({
      item,
      placement: { pageId: page.id, position: placement.position, block: { id: newId('blk'), installationId: current.id, blockType: placement.block.blockType, settings: placement.block.settings } }
    })
  }
  return { items, settings, embeds, blocks }
}

async function definitionsOf (context: InstallationsContext, businessId: string, installation: InstallationRow): Promise<Definitions> {
  const current = (await activeInstallations(context.executor, extensionsOf(context), businessId, [installation.id])).get(installation.id)
  if (current === undefined) throw notFound('installation_not_found', 'Installation')
  return { current, settingsSchema: await context.apps.settingsSchemaOf(installation.appId) }
}

async function pagesOf (commerce: Pick<CommerceService, 'in'>, executor: Executor, businessId: string, setup: PreviousSetup): Promise<Map<string, PageFacts>> {
  const pages = new Map<string, PageFacts>()
  for (const pageId of new Set(setup.blocks.map((b) => b.pageId))) {
    const page = await commerce.in(executor).pageById(businessId, pageId)
    if (page !== null) pages.set(page.id, { id: page.id, slug: page.slug, title: page.title, blockCount: page.blocks.length })
  }
  return pages
}

function view (installation: InstallationRow, previous: Awaited<ReturnType<typeof previousOf>>, items: SetupItem[]): PreviousSetupView {
  return {
    installationId: installation.id,
    status: statusOf(previous?.setup ?? null),
    previousInstallationId: previous?.id ?? null,
    uninstalledAt: previous?.uninstalledAt.toISOString() ?? null,
    items
  }
}

// The offer to restore what the merchant had set up before uninstalling the app (docs/decisions.md).

/** What a restore would bring back and what it would skip; items only while the offer stands. */
export async function previousSetupOf (context: InstallationsContext, businessId: string, installationId: string): Promise<PreviousSetupView> {
  const { executor } = context
  const installation = await getForBusiness(executor, businessId, installationId)
  const previous = await previousOf(executor, installation)
  if (previous === null || statusOf(previous.setup) !== 'OFFERED') return view(installation, previous, [])
  const definitions = await definitionsOf(context, businessId, installation)
  const plan = planRestore(previous.setup, definitions, await pagesOf(context.commerce, executor, businessId, previous.setup))
  return view(installation, previous, plan.items)
}

/** Locks the installation and its offer; 404 without one, 409 once restored or dismissed. */
async function openOffer (executor: Executor, businessId: string, installationId: string) {
  const installation = await getForBusiness(executor, businessId, installationId, true)
  const previous = await previousOf(executor, installation, true)
  if (previous === null) throw notFound('previous_setup_not_found', 'Previous setup')
  if (previous.setup.resolution !== null) {
    throw conflict('previous_setup_resolved', `The previous setup was already ${previous.setup.resolution.outcome === 'RESTORED' ? 'restored' : 'dismissed'}`)
  }
  return { installation, previous }
}

async function resolve (clock: Clock, executor: Executor, previous: { id: string, setup: PreviousSetup }, outcome: 'RESTORED' | 'DISMISSED', installationId: string) {
  const resolution = { outcome, at: clock.now().toISOString(), installationId }
  await executor.update(installations).set({ previousSetup: { ...previous.setup, resolution }, updatedAt: databaseNow() })
    .where(eq(installations.id, previous.id))
  return { ...previous.setup, resolution }
}

/** Restores what still matches, in one transaction; the answer lists what was restored and what was skipped. */
export async function restoreSetup (context: InstallationsContext, businessId: string, installationId: string): Promise<PreviousSetupView> {
  // the app's definitions first: on the embedded database a read outside the transaction would wait for it
  const definitions = await definitionsOf(context, businessId, await getForBusiness(context.executor, businessId, installationId))
  return await context.executor.transaction(async (tx) => {
    const { installation, previous } = await openOffer(tx, businessId, installationId)
    const plan = planRestore(previous.setup, definitions, await pagesOf(context.commerce, tx, businessId, previous.setup))
    const outcomes = await context.commerce.in(tx).placeBlocks(businessId, plan.blocks.map((b) => b.placement))
    outcomes.forEach((outcome, index) => {
      const { item } = plan.blocks[index]
      if (outcome.placed) item.position = outcome.position
      else item.skipped = outcome.reason === 'page_full' ? skip('page_full', 'The page has no room for another block') : skip('page_gone', 'The page no longer exists')
    })
    await tx.update(installations).set({
      ...(plan.settings !== null ? { settings: plan.settings } : {}),
      embedSettings: { ...installation.embedSettings, ...plan.embeds },
      updatedAt: databaseNow()
    }).where(eq(installations.id, installation.id))
    const setup = await resolve(context.clock, tx, previous, 'RESTORED', installation.id)
    return view(installation, { ...previous, setup }, plan.items)
  })
}

/** "Not now": the offer goes away for good (a later uninstall records a new one). */
export async function dismissPreviousSetup (context: InstallationsContext, businessId: string, installationId: string): Promise<PreviousSetupView> {
  return await context.executor.transaction(async (tx) => {
    const { installation, previous } = await openOffer(tx, businessId, installationId)
    const setup = await resolve(context.clock, tx, previous, 'DISMISSED', installation.id)
    return view(installation, { ...previous, setup }, [])
  })
}
