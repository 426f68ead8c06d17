import t from 'tap'
import { figure, formatSpread, percentile, spread } from '../../bench/stats.ts'

t.test('bench figures survive a run where nothing arrived', async (t) => {
  t.ok(Number.isNaN(percentile([], 0.99)), 'no latency: NaN, not undefined')
  t.equal(percentile([1, 2, 3, 4], 0.5), 3)
  t.equal(percentile([1, 2, 3, 4], 0.99), 4)
  t.equal(figure(Number.NaN, 1, ' ms'), 'none')
  t.equal(figure(12.345, 1, ' ms'), '12.3 ms')

  const empty = spread([Number.NaN, Number.NaN])
  t.equal(formatSpread(empty), 'none', 'every round without a figure')
  const partly = spread([Number.NaN, 10, 20])
  t.same({ median: partly.median, min: partly.min, max: partly.max }, { median: 15, min: 10, max: 20 }, 'a round without a figure is left out')
  t.equal(formatSpread(partly), '15 (10–20)')
  t.equal(formatSpread(spread([0, 0, 0])), '0 (0–0)', 'zero deliveries/s is a figure')
})
