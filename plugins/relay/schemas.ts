import { Type, type Static } from '@sinclair/typebox'
import { StringEnum, SUBSCRIBABLE_EVENTS } from '../../sdk/src/contract/index.ts'

/** The largest answer relayed back: a hook answer is at most 64 KB, a webhook's is only kept as a snippet. */
const MAX_ANSWER_BODY = 256 * 1024

export const RelayCallParams = Type.Object({
  appId: Type.String({ minLength: 1, maxLength: 64 }),
  callId: Type.String({ minLength: 1, maxLength: 64 })
})

export const RelayAnswerBodySchema = Type.Object({
  status: Type.Integer({ minimum: 100, maximum: 599, description: 'The HTTP status the local app answered' }),
  headers: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 4096 }), { maxProperties: 64, description: 'Its response headers' }),
  body: Type.String({ maxLength: MAX_ANSWER_BODY, description: 'Its response body, as text' })
}, { title: 'RelayAnswer', additionalProperties: false })
export type RelayAnswerBody = Static<typeof RelayAnswerBodySchema>

export const RelayedCallSchema = Type.Object({
  id: Type.String({ examples: ['rly_…'] }),
  kind: Type.Union([Type.Literal('webhook'), Type.Literal('hook')]),
  name: Type.String({ description: 'The event or the hook point' }),
  path: Type.String({ description: 'The path and query of the URL production would call (the registration\'s, the app\'s webhook URL, or the webhook URL plus the hook\'s path): the CLI posts to its local origin plus this path' }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'What the local app answered; null when no answer came in time' }),
  createdAt: Type.String({ format: 'date-time' }),
  answeredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
}, { title: 'RelayedCall' })

/** What a listen stream sends per call (`event: call`), documented for the CLI's authors. */
export const RelayCallEventSchema = Type.Object({
  callId: Type.String(),
  kind: Type.Union([Type.Literal('webhook'), Type.Literal('hook')]),
  name: Type.String(),
  path: Type.String({ description: 'The path and query of the URL production would call; post to your local origin plus this path' }),
  headers: Type.Record(Type.String(), Type.String(), { description: 'Signed as usual: post them with the body, unchanged' }),
  body: Type.String(),
  timeoutMs: Type.Integer(),
  deadlineAt: Type.String({ format: 'date-time' })
}, { title: 'RelayCallEvent' })

export const TriggerBodySchema = Type.Object({
  // the handler names the triggerable events in its 400 (event_unknown); the document shows them as the enum
  event: Type.String({ minLength: 1, maxLength: 64, description: 'An event of the catalogue, e.g. order.created (not webhook.test or business.data_erasure)', documentedAs: StringEnum(SUBSCRIBABLE_EVENTS) })
}, { title: 'TriggerBody', additionalProperties: false })

export const TriggeredSchema = Type.Object({
  event: Type.String(),
  eventId: Type.String({ description: 'The outbox event: its deliveries show in the console' }),
  businessId: Type.String({ description: 'Your sandbox business' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'The sample data sent, marked sample: true' })
}, { title: 'Triggered' })
