import { setTimeout as delay } from 'node:timers/promises'

/** Between two reads of a condition: short, so a test goes on soon after the work is done. */
const POLL_MS = 50

/**
 * The one way tests wait: polls until `ok` holds and returns the last value, for state written just
 * after a receiver answered, by a job, or by another process. With no `timeoutMs` it waits as long as
 * the work takes (a loaded machine is slower, not wrong; the test file's timeout bounds a wait that
 * never ends); a test about how soon something happens passes its bound and gets the last value when
 * time is up. Tests never wait for a fixed time: `test/architecture/no-sleeps.test.ts` fails on one.
 */
export async function until<T> (read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = Number.POSITIVE_INFINITY): Promise<T> {
  const deadline = performance.now() + timeoutMs
  let value = await read()
  while (!ok(value) && performance.now() < deadline) {
    await delay(POLL_MS)
    value = await read()
  }
  return value
}

/** A promise the test settles itself: work that awaits `opened` is held until `open()` (a held receiver, a slow read). */
export function gate (): { opened: Promise<void>, open: () => void } {
  let open = (): void => {}
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { opened, open }
}

/**
 * `work`'s value, or a failure saying what did not happen if it has not settled within `ms`: a bound
 * on a wait that might never end (a stream left open, a request that hangs), never a wait for time.
 * It resolves as soon as the work does; pick a bound a loaded machine stays far inside.
 */
export async function within<T> (work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
    timer.unref()
  })
  try {
    return await Promise.race([work, bound])
  } finally {
    clearTimeout(timer)
  }
}
