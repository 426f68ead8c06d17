import t from 'tap'
import { DEFAULT_MAX_LINE_QUANTITY, DELIVERY_FEE, mergeItems, quoteCheckout, type CheckoutContext, type CheckoutPipeline } from '../../../plugins/commerce/checkout-service.ts'

// The checkout's money on a priced cart, no database: what the quote step makes of the hooks' answers
// (checkout.test.ts and the checkout-hooks tests show the same through orders).
const cart: CheckoutContext = {
  businessId: 'biz_1', currency: 'USD', subtotal: 1000, deliveryMethod: 'DELIVERY', locality: 'Centre', paymentMethod: 'CASH',
  deliveryFee: DELIVERY_FEE, discount: 0, promoCode: null,
  items: [{ productId: 'prod_1', name: 'Tea', quantity: 2, unitPrice: 500, total: 1000 }]
}
const answering = (adjustment: Awaited<ReturnType<NonNullable<CheckoutPipeline['quote']>>>): CheckoutPipeline => ({ quote: async () => adjustment })

t.test('the built-in quote: subtotal, the built-in fee, the promo discount', async (t) => {
  t.same(await quoteCheckout(cart, {}), { subtotal: 1000, deliveryFee: 300, deliveryFeeSetBy: null, discount: 0, amount: 1300, discountReasons: [] })
  t.match(await quoteCheckout({ ...cart, discount: 150, promoCode: 'TEN' }, {}), { discount: 150, amount: 1150 })
  t.match(await quoteCheckout(cart, answering(undefined)), { deliveryFee: 300, amount: 1300 }, 'a hook with nothing to say')
})

t.test('an app\'s fee replaces the built-in one, its discount adds to the promo\'s', async (t) => {
  const setBy = { appId: 'app_1', appName: 'Couriers' }
  t.same(await quoteCheckout({ ...cart, discount: 100 }, answering({ deliveryFee: 0, deliveryFeeSetBy: setBy, discount: 50, reason: 'loyalty', reasons: ['', 'first order'] })),
    { subtotal: 1000, deliveryFee: 0, deliveryFeeSetBy: setBy, discount: 150, amount: 850, discountReasons: ['loyalty', 'first order'] })
  t.match(await quoteCheckout(cart, answering({ deliveryFee: 450 })), { deliveryFee: 450, deliveryFeeSetBy: null, amount: 1450 }, 'a fee without its source')
})

t.test('amounts that are not minor units are ignored', async (t) => {
  for (const bad of [-1, 2.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, '300' as unknown as number]) {
    t.match(await quoteCheckout(cart, answering({ deliveryFee: bad, discount: bad, reason: 'ignored' })), { deliveryFee: 300, discount: 0, amount: 1300, discountReasons: [] }, String(bad))
  }
  t.match(await quoteCheckout(cart, answering({ discount: 0, reason: 'nothing off' })), { discountReasons: [] }, 'a zero discount gives no reason')
})

t.test('discounts stop at the subtotal: the fee is still paid', async (t) => {
  t.match(await quoteCheckout({ ...cart, discount: 800 }, answering({ discount: 700 })), { discount: 1000, amount: 300 })
  t.match(await quoteCheckout({ ...cart, deliveryMethod: 'PICKUP', deliveryFee: 0 }, answering({ discount: 5000 })), { discount: 1000, amount: 0 })
})

t.test('the hook sees a copy of the cart', async (t) => {
  const seen: CheckoutContext[] = []
  await quoteCheckout(cart, { quote: async (ctx) => { seen.push(ctx); (ctx as { subtotal: number }).subtotal = 1; return undefined } })
  t.equal(seen[0].subtotal, 1)
  t.equal(cart.subtotal, 1000, 'the caller\'s cart is unchanged')
})

t.test('mergeItems adds a product\'s lines up, sorted, within the line limit', async (t) => {
  t.same(mergeItems([{ productId: 'prod_b', quantity: 1 }, { productId: 'prod_a', quantity: 2 }, { productId: 'prod_b', quantity: 3 }]),
    [{ productId: 'prod_a', quantity: 2 }, { productId: 'prod_b', quantity: 4 }])
  t.same(mergeItems([{ productId: 'p', quantity: 10 }, { productId: 'p', quantity: DEFAULT_MAX_LINE_QUANTITY - 10 }]), [{ productId: 'p', quantity: DEFAULT_MAX_LINE_QUANTITY }])
  t.throws(() => mergeItems([{ productId: 'p', quantity: 15 }, { productId: 'p', quantity: 6 }]),
    { statusCode: 400, code: 'order_quantity_too_large', extra: { productId: 'p', maxLineQuantity: DEFAULT_MAX_LINE_QUANTITY } }, 'merged past the limit')
  t.same(mergeItems([{ productId: 'p', quantity: 50 }], 50), [{ productId: 'p', quantity: 50 }], 'the limit is the caller\'s')
  for (const quantity of [0, -1, 1.5]) t.throws(() => mergeItems([{ productId: 'p', quantity }]), { code: 'order_quantity_invalid' }, String(quantity))
})
