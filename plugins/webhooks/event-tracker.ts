import type { AttemptItem } from './delivery-types.ts'

/**
 * Fresh deliveries (dispatched, not written yet) outstanding per leased event. An event is stamped
 * dispatched only after every one of its deliveries has been recorded, in a later statement than
 * the last record, so a crash in between leaves nothing unrecorded behind a dispatched event.
 * `onEventRecorded` is told of each event whose deliveries are all recorded (to stamp it).
 */
export function createEventTracker (onEventRecorded: (eventId: string) => void) {
  const outstanding = new Map<string, number>()
  /** Fresh deliveries queued or under way here: an event taken again (its lease ran out in a long queue) adds no second copy. */
  const inFlight = new Set<string>()
  /** Events with a fresh delivery whose outcome could not be written: never stamped here (its lease runs out, and it is dispatched again). */
  const unrecorded = new Set<string>()

  /** Counts the fresh items in; answers the items to queue, leaving out fresh ones already in flight in this process. */
  function track (items: AttemptItem[]): AttemptItem[] {
    return items.filter((item) => {
      if (item.fresh === undefined) return true
      if (inFlight.has(item.id)) return false
      inFlight.add(item.id)
      outstanding.set(item.fresh, (outstanding.get(item.fresh) ?? 0) + 1)
      return true
    })
  }

  /** The fresh delivery is no longer in flight here: its outcome is committed (`recorded`), or could not be, or it was never attempted. */
  function settle (item: { id: string, fresh: string }, recorded: boolean): void {
    if (!inFlight.delete(item.id)) return
    const eventId = item.fresh
    if (!recorded) unrecorded.add(eventId)
    const left = (outstanding.get(eventId) ?? 1) - 1
    if (left > 0) {
      outstanding.set(eventId, left)
      return
    }
    outstanding.delete(eventId)
    if (unrecorded.delete(eventId)) return
    onEventRecorded(eventId)
  }

  return { track, settle }
}

export type EventTracker = ReturnType<typeof createEventTracker>
