import t from 'tap'
import { MAX_JSON_DEPTH, deeperThan } from '../../server/plugins/json-depth.ts'
import { build, registerUser, REVIEWER_ENV } from '../helper.ts'
import { createPage, heroBlock, installApp } from '../plugins/storefront/fixtures.ts'

/** The JSON text of `levels` nested objects (or arrays), built as text: JSON.stringify itself recurses. */
const nestedText = (levels: number, kind: 'object' | 'array'): string =>
  kind === 'object' ? `${'{"x":'.repeat(levels)}"bottom"${'}'.repeat(levels)}` : `${'['.repeat(levels)}"bottom"${']'.repeat(levels)}`

/** `levels` nested objects (or arrays), the innermost holding a string. */
const nest = (levels: number, kind: 'object' | 'array'): unknown => {
  let value: unknown = 'bottom'
  for (let i = 0; i < levels; i++) value = kind === 'object' ? { x: value } : [value]
  return value
}

t.test('deeperThan counts objects and arrays, without recursion', async (t) => {
  t.equal(deeperThan({ a: 1 }, 1), false)
  t.equal(deeperThan({ a: [1] }, 1), true)
  t.equal(deeperThan(nest(MAX_JSON_DEPTH, 'object'), MAX_JSON_DEPTH), false)
  t.equal(deeperThan(nest(MAX_JSON_DEPTH + 1, 'array'), MAX_JSON_DEPTH), true)
  t.equal(deeperThan(nest(1_000_000, 'array'), MAX_JSON_DEPTH), true, 'a million levels: no stack overflow')
  t.equal(deeperThan('text', 0), false)
})

t.test('bodies nested past 32 levels are a 400 before validation, in settings and page blocks', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const merchant = await registerUser(app, 'MERCHANT')
  const shop = await installApp(app, merchant, { blocks: [heroBlock()] })
  await createPage(app, merchant, 'home', 'Home')
  const installationId = shop.installed.installationId
  const attacks = [
    { method: 'PUT' as const, url: '/merchant/pages/home/blocks', payload: (deep: string) => `{"blocks":[{"installationId":"${installationId}","blockType":"hero","settings":{"headline":${deep}}}]}` },
    { method: 'PUT' as const, url: `/merchant/installations/${installationId}/settings`, payload: (deep: string) => `{"settings":{"deep":${deep}}}` },
    { method: 'POST' as const, url: '/auth/login', payload: (deep: string) => `{"email":${deep},"password":"x"}` }
  ]
  for (const attack of attacks) {
    for (const levels of [40, 10_000, 100_000]) {
      for (const kind of ['object', 'array'] as const) {
        const response = await app.inject({
          method: attack.method, url: attack.url, headers: { ...merchant.auth, 'content-type': 'application/json' }, payload: attack.payload(nestedText(levels, kind))
        })
        t.equal(response.statusCode, 400, `${attack.url}: ${levels} levels of ${kind}s`)
        t.match(response.json(), { statusCode: 400, error: 'Bad Request', message: `body must not nest objects or arrays deeper than ${MAX_JSON_DEPTH} levels` })
      }
    }
  }
  const shallow = await app.inject({ method: 'PUT', url: '/merchant/pages/home/blocks', headers: merchant.auth, payload: { blocks: [{ installationId, blockType: 'hero', settings: { headline: 'x' } }] } })
  t.equal(shallow.statusCode, 200, 'an ordinary body passes')
})
