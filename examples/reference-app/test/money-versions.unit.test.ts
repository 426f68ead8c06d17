import t from 'tap'
import type { HookRequestDataMap } from '@app-platform/sdk'
import { FLAT_DELIVERY_FEE, loyaltyDiscount, minorUnits, shippingRate } from '../src/checkout-rules.ts'

/** The app is pinned to the API version it was installed on: it reads money as 2026-11 numbers and as 2026-12 objects. */
t.test('the checkout rules read money in both API versions alike', async (t) => {
  const usd = (amount: number) => ({ amount, currency: 'USD' })
  t.equal(minorUnits(1234), 1234)
  t.equal(minorUnits('1234'), 1234, '2026-11 create_payment amounts are strings of digits')
  t.equal(minorUnits(usd(1234)), 1234)
  t.throws(() => minorUnits({ currency: 'USD' }), /not an amount of money/)
  t.throws(() => minorUnits('12.5'), /not an amount of money/)

  const rates = (subtotal: unknown, builtInFee: unknown, deliveryMethod = 'DELIVERY') =>
    shippingRate({ subtotal, builtInFee, deliveryMethod } as unknown as HookRequestDataMap['checkout.shipping_rates'])
  t.same(rates(1000, 300), { fee: FLAT_DELIVERY_FEE })
  t.same(rates(usd(1000), usd(300)), { fee: FLAT_DELIVERY_FEE }, '2026-12: the same fee')
  t.same(rates(usd(5000), usd(300)), { fee: 0 }, '2026-12: free from the threshold, as on 2026-11')
  t.same(rates(usd(1000), usd(300), 'PICKUP'), { fee: 300 }, '2026-12 pickup keeps the built-in fee')

  const discount = (subtotal: unknown) => loyaltyDiscount({ subtotal } as unknown as HookRequestDataMap['order.calculate_discounts']).discount
  t.equal(discount(5000), 500)
  t.equal(discount(usd(5000)), 500, '2026-12: the same discount')
  t.equal(discount(usd(1000)), 0)
})
