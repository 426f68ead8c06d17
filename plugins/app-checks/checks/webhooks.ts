import { randomBytes } from 'node:crypto'
import { newId } from '../../../server/db/ids.ts'
import { deliveryHeaders, envelopeBody } from '../../webhooks/service.ts'
import { evidence, noAnswer, probe, type Probe } from '../http.ts'
import type { CheckContext } from '../context.ts'
import { fail, pass, skip, type Check, type Verdict } from '../runner.ts'

/** The spec's receivers treat a timestamp older than 5 minutes as stale: ten is unambiguous. */
const STALE_BY_MS = 10 * 60 * 1000
/** Stands for the registration in the envelope when the sandbox installation has no webhook of its own. */
const NO_REGISTRATION = 'whk_app_check'

type Signing = 'valid' | 'forged' | 'stale'

/** One webhook delivery as the delivery engine sends it (same envelope, same headers), signed as asked. */
async function deliver (context: CheckContext, event: string, data: Record<string, unknown>, signing: Signing, label?: string): Promise<Probe> {
  const url = context.app.webhookUrl as string
  const webhookId = NO_REGISTRATION
  const occurredAt = context.clock.now()
  const body = envelopeBody({ event, occurredAt, webhookId, businessId: context.business.id, data })
  const secret = signing === 'forged' ? `whsec_${randomBytes(24).toString('hex')}` : context.installation.webhookSecret
  const now = signing === 'stale' ? context.clock.nowMs() - STALE_BY_MS : context.clock.nowMs()
  // signed as the app chose (the spec's X-Webhook-* or Standard Webhooks), as its real deliveries are
  const headers = deliveryHeaders({ secret, rawBody: body, webhookId, event, deliveryId: newId('dlv'), now, scheme: context.app.webhookSignatureScheme })
  return await probe(url, { policy: context.policy, clock: context.clock, dispatcher: context.dispatcher, timeoutMs: context.webhookTimeoutMs, method: 'POST', headers, body, label: label ?? event })
}

const ok = (p: Probe) => p.status !== null && p.status >= 200 && p.status < 300
const NO_WEBHOOK = 'The app has no webhook URL'

export function webhookChecks (context: CheckContext): Array<Check<CheckContext>> {
  const { app } = context
  const one = context.webhookTimeoutMs + 1000
  const testData = { webhookId: NO_REGISTRATION, message: 'A test event from the app checks' }
  return [
    {
      id: 'webhook.rejects_bad_signature',
      title: 'Webhooks with a forged signature or a stale timestamp are refused with 401',
      timeoutMs: 2 * context.webhookTimeoutMs + 1000,
      run: async (): Promise<Verdict> => {
        if (app.webhookUrl === null) return skip(NO_WEBHOOK)
        const forged = await deliver(context, 'webhook.test', testData, 'forged', 'webhook.test, forged signature')
        const stale = await deliver(context, 'webhook.test', testData, 'stale', 'webhook.test, timestamp 10 minutes old')
        const shown = [evidence(forged), evidence(stale)]
        for (const p of [forged, stale]) if (p.status === null) return fail(noAnswer(p), 'Make the webhook URL reachable from the platform.', shown)
        const accepted = [forged.status !== 401 ? `a forged signature got HTTP ${forged.status}` : null, stale.status !== 401 ? `a stale timestamp got HTTP ${stale.status}` : null]
          .filter((x): x is string => x !== null)
        if (accepted.length > 0) {
          const verify = app.webhookSignatureScheme === 'standard-webhooks'
            ? 'Verify webhook-signature over "<webhook-id>.<webhook-timestamp>.<raw body>" (a Standard Webhooks library does it)'
            : 'Verify X-Webhook-Signature over "<timestamp>.<raw body>" in constant time'
          return fail(`Expected 401 for both, but ${accepted.join(' and ')}`, `${verify}, refuse timestamps older than 5 minutes, and answer 401 when either check fails.`, shown)
        }
        return pass('A forged signature and a stale timestamp were each refused with 401', shown)
      }
    },
    {
      id: 'webhook.accepts_test',
      title: 'A signed webhook.test is accepted within 10 s',
      timeoutMs: one,
      run: async (): Promise<Verdict> => {
        if (app.webhookUrl === null) return skip(NO_WEBHOOK)
        const answer = await deliver(context, 'webhook.test', testData, 'valid')
        const shown = [evidence(answer)]
        if (answer.status === null) return fail(noAnswer(answer), `Answer webhooks with a 2xx within ${context.webhookTimeoutMs / 1000} s; do slow work after answering.`, shown)
        if (!ok(answer)) {
          return fail(`A correctly signed webhook.test got HTTP ${answer.status}`, answer.status === 401
            ? 'Sign-check with the webhook secret of your sandbox installation (install the app on your sandbox through OAuth so that it receives the secret).'
            : 'Answer every correctly signed delivery, webhook.test included, with a 2xx.', shown)
        }
        return pass(`Accepted with HTTP ${answer.status} in ${answer.durationMs} ms`, shown)
      }
    },
    {
      id: 'webhook.data_erasure',
      title: 'A signed business.data_erasure is acknowledged',
      timeoutMs: one,
      run: async (): Promise<Verdict> => {
        if (app.webhookUrl === null) return skip(NO_WEBHOOK)
        // as the late erasure of an earlier sandbox installation: the current one must survive it
        const uninstalledAt = new Date(context.installation.installedAt.getTime() - 1000).toISOString()
        const answer = await deliver(context, 'business.data_erasure', { appId: app.id, businessId: context.business.id, uninstalledAt }, 'valid')
        const shown = [evidence(answer)]
        if (answer.status === null) return fail(noAnswer(answer), 'Acknowledge business.data_erasure with a 2xx within the webhook timeout and erase the business\'s data.', shown)
        if (!ok(answer)) return fail(`business.data_erasure got HTTP ${answer.status}`, 'Erase what you keep about the business and answer business.data_erasure with a 2xx.', shown)
        return pass(`Acknowledged with HTTP ${answer.status}`, shown)
      }
    }
  ]
}
