import t from 'tap'
import { createHmac } from 'node:crypto'
import { install, stage } from './fixture.ts'

/** A token signed like the platform's, for the refusals the platform never issues (another secret, a long life). */
function forge (claims: Record<string, unknown>, secret: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`
}

t.test('storefront block, widget and admin page', async (t) => {
  const s = await stage(t)
  const installation = await install(s)

  t.test('GET /blocks/reviews-highlights renders the store’s reviews read with the App API', async (t) => {
    const block = await fetch(`${s.appUrl}/blocks/reviews-highlights?blockId=blk_1&businessId=${installation.businessId}`)
    t.equal(block.status, 200)
    t.equal(block.headers.get('x-frame-options'), null, 'framable (spec: no X-Frame-Options DENY)')
    const html = await block.text()
    t.match(html, /<b data-average>4\.3<\/b>/, 'the average of the six sample reviews')
    t.match(html, /Best margherita in town\./)
    t.match(html, /<script src="\/assets\/block\.js"><\/script>/)
    const script = await fetch(`${s.appUrl}/assets/block.js`)
    t.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8')
    t.match(await script.text(), /SERVICE_BLOCK_READY/, 'the bundled SDK browser entry speaks the block protocol')
    t.equal((await fetch(`${s.appUrl}/assets/nope.js`)).status, 404)
    t.equal((await fetch(`${s.appUrl}/blocks/reviews-highlights?businessId=biz_other`)).status, 404, 'a store without the app')
  })

  t.test('the storefront frames the block on a page and the widget on every page', async (t) => {
    const placed = await s.platform.inject({
      method: 'PUT', url: '/merchant/pages/home/blocks', headers: s.merchant.auth,
      payload: { blocks: [{ installationId: installation.installationId, blockType: 'reviews-highlights' }] }
    })
    t.equal(placed.statusCode, 200, placed.body)
    const embeds = await s.platform.inject({
      method: 'PUT', url: `/merchant/installations/${installation.installationId}/embeds`, headers: s.merchant.auth,
      payload: { embeds: { 'loyalty-widget': { enabled: true, settings: { headline: 'Rewards <3', accentColor: '#0f766e' } } } }
    })
    t.equal(embeds.statusCode, 200, embeds.body)
    const page = (await s.platform.storefront.inject({ url: `/store/${s.merchant.slug}` })).body
    const block = /<iframe class="block" src="([^"]+)"/.exec(page)?.[1].replaceAll('&amp;', '&')
    const widget = /<iframe class="widget widget-bottom-right" src="([^"]+)"/.exec(page)?.[1].replaceAll('&amp;', '&')
    t.match(block, `${s.appUrl}/blocks/reviews-highlights?blockId=`)
    t.ok(widget?.startsWith(`${s.appUrl}/embeds/loyalty-widget?`), String(widget))
    const widgetHtml = await (await fetch(widget as string)).text()
    t.match(widgetHtml, /Rewards &lt;3/, 'the merchant’s headline, escaped')
    t.match(widgetHtml, /--accent: #0f766e/)
    t.match(widgetHtml, /10% off orders of 20\.00 or more/)
  })

  t.test('GET /admin/api/overview answers only for a verified session token', async (t) => {
    const page = await fetch(`${s.appUrl}/admin?businessId=${installation.businessId}&locale=en`)
    t.equal(page.status, 200)
    t.match(page.headers.get('content-security-policy'), `frame-ancestors ${new URL(s.platform.origins.adminUrl).origin}`, 'only the admin panel may frame it')
    t.match(page.headers.get('content-security-policy'), "img-src 'self' data:", 'its data: icon is allowed: no CSP error in the merchant\'s console')
    t.match(await page.text(), /<script src="\/assets\/admin\.js"><\/script>/)

    const issued = await s.platform.inject({ method: 'POST', url: `/merchant/installations/${installation.installationId}/session-token`, headers: s.merchant.auth })
    t.equal(issued.statusCode, 200, issued.body)
    const token = issued.json().sessionToken as string
    const overview = await fetch(`${s.appUrl}/admin/api/overview`, { headers: { authorization: `Bearer ${token}` } })
    t.equal(overview.status, 200)
    t.match(await overview.json(), {
      business: { id: installation.businessId, currency: 'USD' },
      installation: { installationId: installation.installationId },
      verifiedAs: { userId: s.merchant.userId },
      orders: { total: Number },
      reviews: { totalReviews: 6 },
      events: Array
    }, 'the verified business, with App API data')

    const refused = async (authorization: string | null, why: string) => {
      const response = await fetch(`${s.appUrl}/admin/api/overview`, { headers: authorization === null ? {} : { authorization } })
      t.equal(response.status, 401, why)
      t.match(await response.json(), { statusCode: 401, error: 'Unauthorized' }, why)
    }
    await refused(null, 'no token')
    await refused('Bearer not.a.token', 'garbage')
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())
    await refused(`Bearer ${forge(claims, 'whsec_someone_else')}`, 'signed with another secret')
    await refused(`Bearer ${forge({ ...claims, aud: 'another-client' }, installation.webhookSecret)}`, 'for another app')
    await refused(`Bearer ${forge({ ...claims, iat: claims.iat - 600, exp: claims.iat - 300 }, installation.webhookSecret)}`, 'expired')
    await refused(`Bearer ${forge({ ...claims, installationId: 'inst_older' }, installation.webhookSecret)}`, 'an earlier installation')
    await refused(`Bearer ${forge({ ...claims, businessId: 'biz_other' }, installation.webhookSecret)}`, 'a business without the app')
  })
})
