import type { Dispatcher } from 'undici'
import type { Static } from '@sinclair/typebox'
import type { OutboundPolicy } from '../../server/url-policy.ts'
import type { AppRow } from '../apps/service.ts'
import type { AdminPageSchema, BlockSchema, EmbedSchema, HookPoint, HookSchema } from '../apps/manifest/schemas.ts'
import type { ActiveHook, HookResult } from '../checkout-hooks/service.ts'
import type { Clock } from '../../server/clock.ts'

export type BlockDefinition = Static<typeof BlockSchema>
export type EmbedDefinition = Static<typeof EmbedSchema>
export type HookDefinition = Static<typeof HookSchema>
export type AdminPageDefinition = Static<typeof AdminPageSchema>

/** Everything a check may use: the app as submitted, its sandbox installation, and the platform's ways out. */
export interface CheckContext {
  app: AppRow
  extensions: { blocks: BlockDefinition[], embeds: EmbedDefinition[], hooks: HookDefinition[], adminPages: AdminPageDefinition[] }
  /**
   * The sandbox's installation of the app, with its webhook secret in clear; `installed` false when there
   * is none (a submission's run installs nothing): the checks that call the app as a store would are then
   * failed by the plan before they run, and these fields are empty.
   */
  installed: boolean
  installation: { id: string, businessId: string, grantedScopes: string[], webhookSecret: string, installedAt: Date }
  business: { id: string, slug: string, name: string, locale: string }
  /** The admin SPA's origin (admin pages are framed there) and the sandbox store's storefront origin (blocks, embeds). */
  adminOrigin: string
  storefrontOrigin: string
  policy: OutboundPolicy
  clock: Clock
  dispatcher: Dispatcher
  /** WEBHOOK_TIMEOUT_MS: webhooks and page fetches get the webhook's timeout. */
  webhookTimeoutMs: number
  /** Headless Chromium for the admin-page bridge (CHECKS_BROWSER_PATH); null → the bridge check is skipped. */
  browserPath: string | null
  /** The installation's active hooks as the checkout would call them, by hook point. */
  activeHooks: Map<HookPoint, ActiveHook>
  callHook: (hook: ActiveHook, businessId: string, hookPoint: HookPoint, data: Record<string, unknown>) => Promise<HookResult<HookPoint>>
  /** A fresh admin-page session token for the sandbox installation (DESIGN §14), as the admin panel would send. */
  sessionToken: () => Promise<string>
  /** Scopes the installation's App API calls exercised, and the events its webhook registrations subscribe to. */
  scopesExercised: () => Promise<string[]>
  subscribedEvents: () => Promise<string[]>
  /** Memoised across checks of one run (the App URL is visited once). */
  memo: Map<string, Promise<unknown>>
}

/** Runs `make` once per run and key. */
export async function once<T> (context: CheckContext, key: string, make: () => Promise<T>): Promise<T> {
  if (!context.memo.has(key)) context.memo.set(key, make())
  return await (context.memo.get(key) as Promise<T>)
}
