/** Default number of delivery ids remembered by the webhook handlers. */
export const DEFAULT_DEDUPE_ENTRIES = 1000

/**
 * Runs a handler at most once per delivery id (X-Service-Event-Id), remembering the last
 * `maxEntries` ids that completed. A duplicate that arrives while the first copy is still being
 * handled waits for it and shares its outcome. A failed run is forgotten so the platform's retry
 * is handled again. In-memory: one process only; use a shared store across several processes.
 */
export class DeliveryDeduper {
  readonly maxEntries: number
  private readonly done = new Map<string, true>()
  private readonly running = new Map<string, Promise<void>>()

  constructor (maxEntries = DEFAULT_DEDUPE_ENTRIES) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError('maxEntries must be a positive integer')
    this.maxEntries = maxEntries
  }

  /** True when the id completed recently; refreshes its place in the LRU order. */
  has (eventId: string): boolean {
    if (!this.done.has(eventId)) return false
    this.done.delete(eventId)
    this.done.set(eventId, true)
    return true
  }

  /** Runs `handler` unless `eventId` already ran; resolves `true` when it ran now. */
  async run (eventId: string | null, handler: () => void | Promise<void>): Promise<boolean> {
    if (eventId === null) {
      await handler()
      return true
    }
    if (this.has(eventId)) return false
    const inFlight = this.running.get(eventId)
    if (inFlight !== undefined) {
      await inFlight
      return false
    }
    const attempt = (async () => { await handler() })()
    this.running.set(eventId, attempt)
    try {
      await attempt
      this.remember(eventId)
      return true
    } finally {
      this.running.delete(eventId)
    }
  }

  private remember (eventId: string): void {
    this.done.set(eventId, true)
    while (this.done.size > this.maxEntries) {
      const oldest = this.done.keys().next().value as string
      this.done.delete(oldest)
    }
  }
}
