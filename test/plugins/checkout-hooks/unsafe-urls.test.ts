import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { startAppServer, installHookApp, shop, cart, customer } from './fixtures.ts'

const PAYMENT_HOOKS = [{ hookPoint: 'checkout.payment_methods', url: '/methods' }, { hookPoint: 'checkout.create_payment', url: '/pay', timeout: 3000 }]

// issue #25 item 13: an app's answer must never put a script address in front of a customer
t.test('non-http(s) paymentUrl and icon from hook answers never reach the customer', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const { merchant, slug, pizza, soda } = await shop(app)
  let paymentUrl = 'javascript:alert(document.cookie)'
  const provider = await startAppServer(t, {
    '/base/methods': () => ({
      json: {
        methods: [
          { id: 'qr', name: 'QR pay', icon: 'javascript:alert(1)' },
          { id: 'data', name: 'Data pay', icon: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+' },
          { id: 'fine', name: 'Fine pay', icon: 'https://cdn.example.com/fine.png' }
        ]
      }
    }),
    '/base/pay': ({ body }) => ({ json: { paymentUrl, invoiceId: `inv-${body.data.orderId}` } })
  })
  const owner = await installHookApp(app, developer, merchant, provider.url, PAYMENT_HOOKS, ['write_payments'])
  const methodId = (id: string) => `${owner.installed.installationId}:${id}`

  t.test('an icon that is not http(s) is dropped, the method stays', async (t) => {
    const quote = (await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/checkout/quote`, payload: cart(pizza.id, soda.id) })).json()
    const byId = new Map(quote.paymentMethods.map((m: { id: string }) => [m.id, m]))
    t.same(byId.get(methodId('qr')), { id: methodId('qr'), name: 'QR pay', provider: 'app', appId: owner.appId })
    t.notOk('icon' in (byId.get(methodId('data')) as object), 'data: icons are dropped too')
    t.match(byId.get(methodId('fine')), { icon: 'https://cdn.example.com/fine.png' })
  })

  for (const unsafe of ['javascript:alert(document.cookie)', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)']) {
    t.test(`a paymentUrl ${unsafe.split(':')[0]}: is refused: 502, the order stays unpaid`, async (t) => {
      paymentUrl = unsafe
      const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: methodId('qr') } })
      t.equal(placed.statusCode, 502)
      t.notMatch(placed.body, /script:|data:text/i, 'the address is not echoed to the customer')
      t.match(placed.json(), { statusCode: 502, message: /payment provider did not answer/, orderId: String })
    })
  }

  t.test('an https paymentUrl still goes through', async (t) => {
    paymentUrl = 'https://pay.example.com/i/1'
    const placed = await app.storefront.inject({ method: 'POST', url: `/store/${slug}/api/orders`, payload: { ...cart(pizza.id, soda.id), customer, paymentMethod: methodId('qr') } })
    t.equal(placed.statusCode, 201)
    t.equal(placed.json().payment.paymentUrl, 'https://pay.example.com/i/1')
  })
})
