import { Type, type Static } from '@sinclair/typebox'

/** App API schemas that the commerce schemas (plugins/merchant/schemas.ts) do not already give. */

export const ReviewStatsQuerySchema = Type.Object({
  productId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Statistics of one product only' }))
}, { additionalProperties: false })

export const PaymentOutcomeBodySchema = Type.Object({
  status: Type.Union([Type.Literal('COMPLETED'), Type.Literal('FAILED')], { description: 'The outcome of the payment the app collected' })
}, { title: 'PaymentOutcomeBody', additionalProperties: false })
export type PaymentOutcomeBody = Static<typeof PaymentOutcomeBodySchema>
