import { signatureHeaders, USER_AGENT } from '../../server/signing.ts'
import { DEFAULT_SIGNATURE_SCHEME, type SignatureScheme } from '../../sdk/src/contract/events.ts'
import { API_VERSION_HEADER } from '../../sdk/src/contract/api-versions.ts'

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

/**
 * Headers of one attempt: the timestamp is this attempt's send time, so the signature is fresh too.
 * Under `standard-webhooks` the X-Webhook-* headers give way to webhook-id (the delivery id),
 * webhook-timestamp and webhook-signature; X-Service-Event-Id is sent either way.
 */
export function deliveryHeaders (input: {
  secret: string, rawBody: string, webhookId: string, event: string, deliveryId: string,
  /** The attempt's send time (ms), from the clock (server/clock.ts). */
  now: number
  scheme?: SignatureScheme
  /** The API version the body is shaped for (App-Api-Version) */
  apiVersion?: string
}): Record<string, string> {
  const timestamp = Math.floor(input.now / 1000)
  const scheme = input.scheme ?? DEFAULT_SIGNATURE_SCHEME
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...(scheme === 'spec' ? { 'x-webhook-id': input.webhookId, 'x-webhook-event': input.event } : {}),
    ...signatureHeaders(scheme, { secret: input.secret, id: input.deliveryId, timestamp, rawBody: input.rawBody }),
    'x-service-event-id': input.deliveryId,
    ...(input.apiVersion !== undefined ? { [API_VERSION_HEADER.toLowerCase()]: input.apiVersion } : {})
  }
}
