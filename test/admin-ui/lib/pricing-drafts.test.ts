import t from 'tap'
import { draftsOf, emptyDraft, hasProblems, localProblems, pricingOf, serverProblems } from '../../../admin-ui/src/lib/pricing-drafts.ts'

const usd = (amount: number) => ({ amount, currency: 'USD' })
const pricing = {
  plans: [
    { id: 'pro', name: 'Pro', kind: 'RECURRING' as const, price: usd(1900), interval: 'ANNUAL' as const, trialDays: 7, usage: { cappedAmount: usd(5000), terms: 'per card' } },
    { id: 'setup', name: 'Setup', kind: 'ONE_TIME' as const, price: usd(4900) }
  ]
}

t.test('a pricing comes back from its drafts as it was', async (t) => {
  const drafts = draftsOf(pricing, 'USD')
  t.match(drafts[0], { price: '19.00', trialDays: '7', hasUsage: true, usageCap: '50.00', usageTerms: 'per card' })
  t.notOk(hasProblems(localProblems(drafts, 'USD')))
  t.same(pricingOf(drafts, 'USD'), pricing)
})

t.test('a ONE_TIME draft sends no interval, trial or usage, whatever the form held', async (t) => {
  const [, setup] = draftsOf(pricing, 'USD')
  t.same(pricingOf([{ ...setup, trialDays: '30', hasUsage: true, usageCap: '1', usageTerms: 'x' }], 'USD'), { plans: [pricing.plans[1]] })
})

t.test('local problems: each by row and field', async (t) => {
  const [pro] = draftsOf(pricing, 'USD')
  const problems = localProblems([
    { ...emptyDraft(), name: '' },
    { ...pro, price: '19.999', trialDays: '91', usageCap: 'lots', usageTerms: ' ' },
    { ...pro, id: 'pro' },
    { ...pro, id: 'Not A Slug' }
  ], 'USD')
  t.same(Object.keys(problems[0]).sort(), ['id', 'name', 'price'])
  t.same(Object.keys(problems[1]).sort(), ['price', 'trialDays', 'usageCap', 'usageTerms'])
  t.match(problems[2], { id: /Another plan/ })
  t.match(problems[3], { id: /lowercase/ })
})

t.test('server problems land on their row and field; the list\'s own under `list`', async (t) => {
  const { rows, list } = serverProblems([
    { path: '/pricing/plans/1/price/currency', message: 'must be USD', code: 'currency_mismatch' },
    { path: '/pricing/plans/0/usage/cappedAmount/currency', message: 'must be USD' },
    { path: '/pricing/plans/0/usage/terms', message: 'must NOT have fewer than 1 characters' },
    { path: '/pricing/plans', message: 'must NOT have more than 10 items' },
    { path: '/name', message: 'not pricing' }
  ])
  t.same(rows[1], { price: 'Must be USD.' })
  t.same(rows[0], { usageCap: 'Must be USD.', usageTerms: 'Must NOT have fewer than 1 characters.' })
  t.equal(list, 'Must NOT have more than 10 items.')
})
