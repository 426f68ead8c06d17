import { signature, USER_AGENT } from '../../server/signing.ts'

/** The body every webhook carries (spec, Events: Envelope). */
export interface Envelope {
  event: string
  timestamp: string
  webhookId: string
  businessId: string
  data: Record<string, unknown>
}

/**
 * The exact body of every attempt of a delivery: rebuilt from the stored delivery (its data read back
 * from jsonb, so the key order is the database's), which is how the console shows what was sent.
 */
export function envelopeBody (delivery: {
  event: string, occurredAt: Date, webhookId: string, businessId: string, data: Record<string, unknown>, dataJson?: string
}): string {
  if (delivery.dataJson !== undefined) {
    // the same text JSON.stringify writes for the envelope below, around data serialized once per event
    return `{"event":${JSON.stringify(delivery.event)},"timestamp":"${delivery.occurredAt.toISOString()}",` +
      `"webhookId":${JSON.stringify(delivery.webhookId)},"businessId":${JSON.stringify(delivery.businessId)},"data":${delivery.dataJson}}`
  }
  const envelope: Envelope = {
    event: delivery.event, timestamp: delivery.occurredAt.toISOString(), webhookId: delivery.webhookId, businessId: delivery.businessId, data: delivery.data
  }
  return JSON.stringify(envelope)
}

/** Headers of one attempt: the timestamp is this attempt's send time, so the signature is fresh too. */
export function deliveryHeaders (input: {
  secret: string, rawBody: string, webhookId: string, event: string, deliveryId: string,
  now?: number
}): Record<string, string> {
  const timestamp = Math.floor((input.now ?? Date.now()) / 1000)
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-webhook-id': input.webhookId,
    'x-webhook-event': input.event,
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-signature': signature(input.secret, timestamp, input.rawBody),
    'x-service-event-id': input.deliveryId
  }
}
