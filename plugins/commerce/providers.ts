import type { BlockInstance } from '../../server/db/schema/index.ts'
import type { PageBlocksBody } from '../installations/schemas.ts'
import type { OrderCheckout } from './schemas.ts'

/**
 * What commerce's routes ask of capabilities that boot after it (they depend on commerce), through
 * interfaces commerce defines: each is provided once, at that capability's boot, so commerce never
 * calls their decorators and no runtime cycle forms (docs/architecture.md "Who calls whom").
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
}

export interface CommerceProviders {
  providePageBlocks: (checker: PageBlockChecker) => void
  provideOrderHooks: (log: OrderHookLog) => void
  readonly pageBlocks: PageBlockChecker
  readonly orderHooks: OrderHookLog
  /** The names of the interfaces nobody provided (the boot fails on any). */
  missing: () => string[]
}

export function createCommerceProviders (): CommerceProviders {
  let pageBlocks: PageBlockChecker | null = null
  let orderHooks: OrderHookLog | null = null
  const once = (name: string, current: unknown) => {
    if (current !== null) throw new Error(`commerce: ${name} is provided twice`)
  }
  return {
    providePageBlocks: (checker) => { once('page blocks', pageBlocks); pageBlocks = checker },
    provideOrderHooks: (log) => { once('order hooks', orderHooks); orderHooks = log },
    get pageBlocks () {
      if (pageBlocks === null) throw new Error('commerce: no capability provides page blocks')
      return pageBlocks
    },
    get orderHooks () {
      if (orderHooks === null) throw new Error('commerce: no capability provides order hooks')
      return orderHooks
    },
    missing: () => [...(pageBlocks === null ? ['page blocks (installations)'] : []), ...(orderHooks === null ? ['order hooks (checkout-hooks)'] : [])]
  }
}
