import t from 'tap'
import { build, registerUser, REVIEWER_ENV } from '../../helper.ts'
import { analyticsScript, businessSlug, chatWidget, createPage, faqBlock, installApp, putBlocks, putEmbeds } from './fixtures.ts'

const cspOf = (header: unknown) => Object.fromEntries(String(header).split('; ').map((part) => { const [name, ...values] = part.split(' '); return [name, values] }))

t.test('the storefront CSP follows the enabled embeds and placed blocks of that business, nothing broader', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const slug = await businessSlug(app, merchant)
  const shop = await installApp(app, merchant, { embeds: [analyticsScript(), chatWidget()], blocks: [faqBlock()] })
  const inst = shop.installed.installationId
  await createPage(app, merchant, 'home', 'Home')
  const csp = async () => {
    const policy = cspOf((await app.storefront.inject({ url: `/store/${slug}` })).headers['content-security-policy'])
    return { scripts: policy['script-src'], frames: policy['frame-src'] }
  }

  t.same(await csp(), { scripts: ["'self'"], frames: ["'none'"] }, 'installed but nothing enabled or placed: only the platform')
  await putEmbeds(app, merchant, inst, { analytics: { enabled: true } })
  t.same(await csp(), { scripts: ["'self'", 'https://cdn.analytics.example'], frames: ["'none'"] }, 'a GLOBAL_SCRIPT enabled: its origin')
  await putEmbeds(app, merchant, inst, { chat: { enabled: true } })
  t.same((await csp()).frames, ['https://chat.example.net'], 'a FLOATING_WIDGET enabled: its frame origin')
  await putBlocks(app, merchant, 'home', [{ id: 'faq-1', installationId: inst, blockType: 'faq' }])
  t.same((await csp()).frames, ['https://chat.example.net', 'https://faq.example.org'], 'a block placed: its frame origin')
  await putEmbeds(app, merchant, inst, { analytics: { enabled: false } })
  t.same((await csp()).scripts, ["'self'"], 'disabled again: gone')

  const neighbour = await registerUser(app, 'MERCHANT')
  const theirs = await installApp(app, neighbour, { embeds: [analyticsScript('https://neighbour-tag.example/t.js')] })
  await putEmbeds(app, neighbour, theirs.installed.installationId, { analytics: { enabled: true } })
  t.same((await csp()).scripts, ["'self'"], "another business's embeds never widen this store's policy")
  const theirCsp = cspOf((await app.storefront.inject({ url: `/store/${await businessSlug(app, neighbour)}` })).headers['content-security-policy'])
  t.same(theirCsp['script-src'], ["'self'", 'https://neighbour-tag.example'])

  await app.inject({ method: 'DELETE', url: `/merchant/installations/${inst}`, headers: merchant.auth })
  t.same(await csp(), { scripts: ["'self'"], frames: ["'none'"] }, 'uninstalled: nothing of the app is allowed')
})
