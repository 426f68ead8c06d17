import { monitorEventLoopDelay } from 'node:perf_hooks'
import { until } from '../../../helper.ts'

/**
 * Runs `work` three times and returns the longest event-loop stall seen during the calmest run, in ms:
 * a stall the work causes shows in every run, while a busy machine's scheduling hiccups do not.
 */
export async function longestStall (work: () => Promise<unknown>): Promise<number> {
  const stalls: number[] = []
  for (let run = 0; run < 3; run++) {
    const histogram = monitorEventLoopDelay({ resolution: 5 })
    histogram.enable()
    await work()
    // the histogram samples on a timer: let one fire after the work so a synchronous stall is recorded
    const sampled = histogram.count
    await until(async () => histogram.count, (count) => count > sampled)
    histogram.disable()
    stalls.push(histogram.max / 1e6)
  }
  return Math.min(...stalls)
}
