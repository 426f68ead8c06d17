import t from 'tap'
import fc from 'fast-check'
import { envelopeBody } from '../../../plugins/webhooks/signing.ts'

t.test('the envelope around data serialized once is the text JSON.stringify writes', async (t) => {
  const base = { event: 'order.created', occurredAt: new Date('2026-11-22T10:00:00.123Z'), webhookId: 'wh_"1', businessId: 'biz_\u2028' }
  fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (data) => {
    const plain = envelopeBody({ ...base, data })
    t.equal(envelopeBody({ ...base, data, dataJson: JSON.stringify(data) }), plain)
    const { event, webhookId, businessId } = base
    t.same(JSON.parse(plain), { event, timestamp: base.occurredAt.toISOString(), webhookId, businessId, data: JSON.parse(JSON.stringify(data)) })
  }), { numRuns: 200 })
})
