import { provided } from '../../server/providers.ts'
import type { BlockInstance } from '../../server/db/schema/index.ts'
import type { OrderCheckout, PageBlocksBody } from './schemas.ts'

/**
 * What commerce's routes ask of capabilities that boot after it (they depend on commerce), through
 * interfaces commerce defines and they provide at their boot (server/providers.ts): commerce never
 * calls their decorators, so no runtime cycle forms (docs/architecture.md "Who calls whom").
 */

/** The page editor's blocks: provided by installations, which knows the installed apps' blocks. */
export interface PageBlockChecker {
  /** The draft's blocks, each an active block of an active installation, settings valid (400 lists every problem); ids kept or generated. */
  checkBlocks: (businessId: string, body: PageBlocksBody, current: BlockInstance[]) => Promise<BlockInstance[]>
}

/** One checkout hook call of an order, as the order's checkout view shows it (without the app's name). */
export type OrderHookCall = Omit<OrderCheckout['hookCalls'][number], 'appName'> & { installationId: string }

/** The hook calls of an order's checkout: provided by checkout-hooks, which owns the call log. */
export interface OrderHookLog {
  callsOfOrder: (businessId: string, orderId: string) => Promise<OrderHookCall[]>
  /** The app of one of the business's active installations (an app payment method's), else null. */
  appOfInstallation: (businessId: string, installationId: string) => Promise<string | null>
  /** The names of these apps by id (an app since deleted has none). */
  appNamesOf: (appIds: string[]) => Promise<Map<string, string>>
}

export function createCommerceProviders () {
  return {
    pageBlocks: provided<PageBlockChecker>('commerce page blocks (installations)'),
    orderHooks: provided<OrderHookLog>('commerce order hooks (checkout-hooks)')
  }
}

export type CommerceProviders = ReturnType<typeof createCommerceProviders>
