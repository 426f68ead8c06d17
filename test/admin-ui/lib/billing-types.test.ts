import t from 'tap'
import { priceWithInterval, safeRedirect } from '../../../admin-ui/src/lib/billing-types.ts'

t.test('safeRedirect: only an absolute http(s) URL is followed after a decision', async (t) => {
  t.equal(safeRedirect('https://app.example.com/billing/return?charge_id=sub_1&status=ACTIVE'), 'https://app.example.com/billing/return?charge_id=sub_1&status=ACTIVE')
  t.equal(safeRedirect('http://127.0.0.1:4000/return'), 'http://127.0.0.1:4000/return')
  for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', '//evil.example.com/x', '/admin/billing', 'not a url', '']) {
    t.equal(safeRedirect(url), null, `refused: ${JSON.stringify(url)}`)
  }
})

t.test('priceWithInterval: the price and how often it is charged', async (t) => {
  t.equal(priceWithInterval({ amount: 999, currency: 'USD' }, 'EVERY_30_DAYS'), '$9.99 every 30 days')
  t.equal(priceWithInterval({ amount: 12000, currency: 'USD' }, 'ANNUAL'), '$120.00 every year')
  t.equal(priceWithInterval({ amount: 2500, currency: 'USD' }, null), '$25.00 once')
})
