import type { AttemptItem } from './delivery.ts'

export type { AttemptItem }

/**
 * In-process FIFO with bounded concurrency for delivery attempts. It holds only ids: the state lives
 * in the database, so whatever is lost here on a crash is found again by the sweep.
 */
export function createAttemptQueue (run: (item: AttemptItem) => Promise<void>, options: { concurrency: number, onError: (error: unknown) => void }) {
  let items: AttemptItem[] = []
  let head = 0
  let running = 0
  let stopped = false
  const queued = new Set<string>()
  const idleWaiters: Array<() => void> = []

  function pump (): void {
    // eslint-disable-next-line no-unmodified-loop-condition -- stop() sets it between pumps
    while (!stopped && running < options.concurrency && head < items.length) {
      const item = items[head++]
      queued.delete(item.id)
      running++
      run(item).catch(options.onError).finally(() => {
        running--
        pump()
      })
    }
    if (head > 1024 && head * 2 > items.length) {
      items = items.slice(head)
      head = 0
    }
    if (running === 0 && head >= items.length) {
      for (const resolve of idleWaiters.splice(0)) resolve()
    }
  }

  return {
    push (list: AttemptItem[]): void {
      if (stopped) return
      for (const item of list) {
        // A sweep or a job may name a delivery that is already waiting here; one entry is enough.
        if (item.reserved === undefined && item.claimed === undefined && queued.has(item.id)) continue
        queued.add(item.id)
        items.push(item)
      }
      pump()
    },
    has: (id: string) => queued.has(id),
    get size () { return items.length - head + running },
    /** Stops taking new items and waits for the running attempts. */
    async stop (): Promise<void> {
      stopped = true
      items = []
      head = 0
      if (running === 0) return
      await new Promise<void>((resolve) => { idleWaiters.push(resolve) })
    },
    /** Resolves when nothing is queued or running (tests, bench). */
    async idle (): Promise<void> {
      if (running === 0 && head >= items.length) return
      await new Promise<void>((resolve) => { idleWaiters.push(resolve) })
    }
  }
}

export type AttemptQueue = ReturnType<typeof createAttemptQueue>
