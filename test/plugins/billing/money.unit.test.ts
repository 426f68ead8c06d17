import t from 'tap'
import { feeOf, monthlyOfAnnual, prorate, shareHalfUp, sum } from '../../../plugins/billing/money.ts'

const DAY = 86_400_000
const CYCLE = 30 * DAY

t.test('a share is rounded half up, once, with no float in the amount', async (t) => {
  t.equal(shareHalfUp(2999, 15, 30), 1500, '1499.5 rounds up')
  t.equal(shareHalfUp(999, 3, 30), 100, '99.9')
  t.equal(shareHalfUp(2999, 20, 30), 1999, '1999.33')
  t.equal(shareHalfUp(1, 1, 3), 0, '0.33')
  t.equal(shareHalfUp(1, 1, 2), 1, '0.5 rounds up')
  t.equal(shareHalfUp(1_000_000_000, 1, 1), 1_000_000_000)
  t.equal(shareHalfUp(999_999_999, 29 * DAY + 1, CYCLE), 966_666_666, 'large amounts over millisecond ratios stay exact')
  t.throws(() => shareHalfUp(-1, 1, 2), RangeError)
  t.throws(() => shareHalfUp(1.5, 1, 2), RangeError)
  t.throws(() => shareHalfUp(1, 1, 0), RangeError)
})

t.test('proration by the exact share of the 30-day cycle', async (t) => {
  t.equal(prorate(2999, CYCLE, CYCLE), 2999, 'a whole cycle is the whole price')
  t.equal(prorate(2999, CYCLE + 1, CYCLE), 2999, 'never more than the price')
  t.equal(prorate(2999, 0, CYCLE), 0)
  t.equal(prorate(3000, 12 * 3_600_000, CYCLE), 50, 'half a day of 30')
  t.equal(prorate(1000, DAY / 2, CYCLE), 17, '16.67')
})

t.test('the platform fee per line, and an annual plan\'s month', async (t) => {
  t.equal(feeOf(1999, 20), 400, '399.8')
  t.equal(feeOf(1500, 20), 300)
  t.equal(feeOf(1, 50), 1, '0.5 rounds up')
  t.equal(feeOf(1000, 12.5), 125, 'a percent with decimals')
  t.equal(feeOf(1000, 0), 0)
  t.equal(monthlyOfAnnual(12000), 1000)
  t.equal(monthlyOfAnnual(9999), 833, '833.25')
  t.equal(sum([1, 2, 3]), 6)
  t.throws(() => sum([Number.MAX_SAFE_INTEGER, 1]), RangeError)
})
