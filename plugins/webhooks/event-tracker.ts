import type { AttemptItem } from './delivery-types.ts'

/** An event the next group write may stamp along with its last deliveries, if its lease is still this one. */
export interface Closing { id: string, lease: string }

/**
 * Fresh deliveries (dispatched, not written yet) outstanding per leased event. An event is stamped
 * dispatched only once every one of its deliveries is recorded: by the statement that records the
 * last of them (`closing`, when it still holds the lease this process was given: a dispatch that took
 * the event again since has renewed it), else by a later statement, so a crash in between leaves
 * nothing unrecorded behind a dispatched event. `onEventRecorded` is told of each event whose
 * deliveries are all recorded and that is not stamped yet (to stamp it).
 */
export function createEventTracker (onEventRecorded: (eventId: string) => void) {
  const outstanding = new Map<string, number>()
  /** The lease each event was last dispatched here under. */
  const leases = new Map<string, string>()
  /** Fresh deliveries queued or under way here: an event taken again (its lease ran out in a long queue) adds no second copy. */
  const inFlight = new Set<string>()
  /** Events with a fresh delivery whose outcome could not be written: never stamped here (its lease runs out, and it is dispatched again). */
  const unrecorded = new Set<string>()

  /** Counts the fresh items in; answers the items to queue, leaving out fresh ones already in flight in this process. */
  function track (items: AttemptItem[]): AttemptItem[] {
    return items.filter((item) => {
      if (item.fresh === undefined) return true
      if (item.lease !== undefined) leases.set(item.fresh, item.lease)
      if (inFlight.has(item.id)) return false
      inFlight.add(item.id)
      outstanding.set(item.fresh, (outstanding.get(item.fresh) ?? 0) + 1)
      return true
    })
  }

  /**
   * The events whose outstanding deliveries are all among `items` (a group about to be written), none
   * unrecorded: the statement that writes the group may stamp them, under the lease they were given.
   */
  function closing (items: Array<{ id: string, fresh: string }>): Closing[] {
    const inGroup = new Map<string, number>()
    for (const item of items) if (inFlight.has(item.id)) inGroup.set(item.fresh, (inGroup.get(item.fresh) ?? 0) + 1)
    const closed: Closing[] = []
    for (const [eventId, n] of inGroup) {
      const lease = leases.get(eventId)
      if (lease !== undefined && outstanding.get(eventId) === n && !unrecorded.has(eventId)) closed.push({ id: eventId, lease })
    }
    return closed
  }

  /**
   * The fresh delivery is no longer in flight here: its outcome is committed (`recorded`), or could not
   * be, or it was never attempted. `stamped`: the statement that recorded it stamped its event too.
   */
  function settle (item: { id: string, fresh: string }, recorded: boolean, stamped = false): void {
    if (!inFlight.delete(item.id)) return
    const eventId = item.fresh
    if (!recorded) unrecorded.add(eventId)
    const left = (outstanding.get(eventId) ?? 1) - 1
    if (left > 0) {
      outstanding.set(eventId, left)
      return
    }
    outstanding.delete(eventId)
    leases.delete(eventId)
    if (unrecorded.delete(eventId)) return
    if (!stamped) onEventRecorded(eventId)
  }

  return { track, closing, settle }
}

export type EventTracker = ReturnType<typeof createEventTracker>
