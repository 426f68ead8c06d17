import { EVENT_SCOPES, type EventName } from '../../../server/events.ts'
import { HOOK_SCOPES, type HookPoint } from '../../apps/manifest/schemas.ts'
import type { CheckContext } from '../context.ts'
import { pass, warn, type Check, type Verdict } from '../runner.ts'

/**
 * `scopes.used`: a scope is exercised by an App API call of the sandbox installation that needed it, by
 * an event its webhooks subscribe to, or by a declared hook (a hook point is called only with its scope).
 */
export function scopeChecks (context: CheckContext): Array<Check<CheckContext>> {
  return [{
    id: 'scopes.used',
    title: 'Every requested scope is used',
    timeoutMs: 5000,
    run: async (): Promise<Verdict> => {
      const [called, events] = await Promise.all([context.scopesExercised(), context.subscribedEvents()])
      const used = new Set<string>(called)
      for (const event of events) {
        const scope = EVENT_SCOPES[event as EventName]
        if (typeof scope === 'string') used.add(scope)
      }
      for (const hook of context.extensions.hooks) used.add(HOOK_SCOPES[hook.hookPoint as HookPoint])
      const unused = context.app.scopes.filter((scope) => !used.has(scope))
      if (unused.length === 0) return pass(`All ${context.app.scopes.length} requested scopes were used by the sandbox installation`)
      return warn(`Never exercised by the sandbox installation's App API calls, webhook subscriptions or hooks, so they may be unnecessary: ${unused.join(', ')}`,
        `Drop ${unused.join(', ')} from the app's scopes, or exercise ${unused.length === 1 ? 'it' : 'them'} on your sandbox before you run the checks.`)
    }
  }]
}
