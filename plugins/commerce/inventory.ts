import type { Executor } from '../../server/db/client.ts'
import { emitEvent, type EventName } from '../../server/events.ts'

export interface StockLevel { productId: string, name: string, stock: number, threshold: number }

/**
 * Inventory events fire once, when stock crosses a line, never on every change:
 * reaching 0 → out_of_stock; leaving 0 → back_in_stock; falling from above the threshold to
 * at or below it (still > 0) → low_stock. Moving the threshold alone fires nothing.
 */
export function stockCrossings (before: number, after: number, threshold: number): EventName[] {
  if (before === after) return []
  if (after === 0) return ['product.out_of_stock']
  if (before === 0) return ['product.back_in_stock']
  if (before > threshold && after <= threshold) return ['product.low_stock']
  return []
}

/** Emits the crossings of one stock change in the caller's transaction. */
export async function emitStockEvents (executor: Executor, businessId: string, before: number, after: StockLevel): Promise<void> {
  for (const event of stockCrossings(before, after.stock, after.threshold)) {
    await emitEvent(executor, { businessId, event, data: { productId: after.productId, name: after.name, stock: after.stock, threshold: after.threshold } })
  }
}
