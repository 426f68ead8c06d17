import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { signPreviewToken, verifyPreviewToken, PREVIEW_TOKEN_SECONDS } from '../../../server/preview-token.ts'
import { businessSlug, createPage, faqBlock, heroBlock, installApp, putBlocks } from './fixtures.ts'

const blockIds = (html: string) => [...html.matchAll(/data-block-id="([^"]+)"/g)].map((m) => m[1])
const dataOf = (html: string) => JSON.parse(/<script type="application\/json" id="storefront-data">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null')

t.test('POST /merchant/pages/:slug/preview and the storefront preview', async (t) => {
  const app = await build(t, { env: { ...REVIEWER_ENV, ADMIN_URL: 'https://admin.example.com' } })
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const { installed } = await installApp(app, merchant, { blocks: [heroBlock(), faqBlock()] })
  const inst = installed.installationId
  await createPage(app, merchant, 'sale', 'Sale', false)
  t.equal((await putBlocks(app, merchant, 'sale', [{ id: 'saved-faq', installationId: inst, blockType: 'faq' }])).statusCode, 200)
  const preview = async (blocks: unknown[], session = merchant, page = 'sale') =>
    await app.inject({ method: 'POST', url: `/merchant/pages/${page}/preview`, headers: session.auth, payload: { blocks } })

  const draft = [{ id: 'draft-hero', installationId: inst, blockType: 'hero', settings: { headline: 'Draft headline' } }, { id: 'saved-faq', installationId: inst, blockType: 'faq' }]
  const answer = await preview(draft)
  t.equal(answer.statusCode, 200)
  const url = new URL(answer.json().previewUrl)
  t.equal(`${url.origin}${url.pathname}`, `${app.origins.storeUrl(slug)}/sale`, 'on the storefront origin, the page itself')
  const expiresIn = Date.parse(answer.json().expiresAt) - Date.now()
  t.ok(expiresIn > (PREVIEW_TOKEN_SECONDS - 5) * 1000 && expiresIn <= PREVIEW_TOKEN_SECONDS * 1000, 'valid 10 minutes')
  t.equal((await app.inject({ url: '/merchant/pages/sale', headers: merchant.auth })).json().blocks.length, 1, 'nothing saved')

  const shown = await app.storefront.inject({ url: `${url.pathname}${url.search}` })
  t.equal(shown.statusCode, 200, 'an unpublished page shows in its preview')
  t.same(blockIds(shown.body), ['draft-hero', 'saved-faq'], 'the draft blocks, in draft order')
  t.match(dataOf(shown.body), { previewOrigin: 'https://admin.example.com', blocks: { 'draft-hero': { headline: 'Draft headline' } } }, 'the admin may send SERVICE_BLOCK_UPDATE')
  t.match(shown.headers['content-security-policy'], /frame-ancestors 'self' https:\/\/admin\.example\.com/)
  t.notOk(shown.headers['set-cookie'], 'no session travels')

  // without the token, or with a bad one, the page is what customers see: unpublished, so not found
  const token = url.searchParams.get('preview') as string
  t.equal((await app.storefront.inject({ url: url.pathname })).statusCode, 404)
  t.equal((await app.storefront.inject({ url: `${url.pathname}?preview=${token.slice(0, -2)}xx` })).statusCode, 404, 'a forged token')
  const secret = app.config.jwtSecret
  const other = await registerUser(app, 'MERCHANT')
  const foreign = signPreviewToken(secret, { businessId: other.businessId, pageId: 'page_x', blocks: [] }, app.clock.now()).token
  t.equal((await app.storefront.inject({ url: `${url.pathname}?preview=${foreign}` })).statusCode, 404, "another business's token")
  const expired = signPreviewToken(secret, { businessId: merchant.businessId, pageId: verifyPreviewToken(secret, token, app.clock.now())?.pageId ?? '', blocks: [] }, new Date(app.clock.nowMs() - 11 * 60 * 1000)).token
  t.equal((await app.storefront.inject({ url: `${url.pathname}?preview=${expired}` })).statusCode, 404, 'an expired token')
  t.equal(verifyPreviewToken('another-secret', token, app.clock.now()), null, 'signed with the platform secret')

  // the draft is checked like a save; pages of another business are 404
  const bad = await preview([{ installationId: inst, blockType: 'hero', settings: { headline: 42 } }])
  t.equal(bad.statusCode, 400)
  t.match(bad.json().message, /blocks\/0\/settings/)
  t.equal((await preview([], other, 'sale')).statusCode, 404)
  t.equal((await preview([{ installationId: inst, blockType: 'hero' }], other, 'sale')).statusCode, 404)
  await createPage(app, other, 'sale', 'Theirs')
  t.equal((await preview([{ installationId: inst, blockType: 'hero' }], other, 'sale')).statusCode, 400, "another business's installation is unknown there")
  t.equal((await app.inject({ method: 'POST', url: '/merchant/pages/sale/preview', payload: { blocks: [] } })).statusCode, 401)
  const huge = Array.from({ length: 40 }, (_, i) => ({ id: `b${i}`, installationId: inst, blockType: 'hero', settings: { headline: 'x'.repeat(80) } }))
  t.match((await preview(huge)).json(), { statusCode: 400, message: /too large to preview/ })
})
