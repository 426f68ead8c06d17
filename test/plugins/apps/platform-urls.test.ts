import t from 'tap'
import { validateManifest } from '../../../plugins/apps/manifest/validate.ts'
import { createOrigins } from '../../../server/origins.ts'
import { appInput, build, createApp, registerUser, testConfig } from '../../helper.ts'

// build(t)'s origins: API and admin http://localhost:3000, storefront http://localhost:3001 (or the template below)
const PLATFORM = ['http://localhost:3000/cb', 'http://127.0.0.1:3000/x', 'http://[::1]:3001/embed.js', 'http://localhost:3001/store/x']

t.test('no app URL on a platform origin', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')

  t.test('POST /developer/apps: redirectUrl and webhookUrl', async (t) => {
    for (const url of PLATFORM) {
      for (const field of ['redirectUrl', 'webhookUrl']) {
        const response = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: appInput({ [field]: url }) })
        t.equal(response.statusCode, 400, `${field} ${url}`)
        t.match(response.json().message, `body/${field} must not point at the platform's own origins`)
      }
    }
    const elsewhere = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: appInput({ redirectUrl: 'http://localhost:3002/cb', webhookUrl: 'http://127.0.0.1:4000/hooks' }) })
    t.equal(elsewhere.statusCode, 201, 'another port of the same machine is another origin')
  })

  t.test('PATCH /developer/apps/:id: the same rules, and image URLs', async (t) => {
    const { app: created } = await createApp(app, developer)
    const patch = async (body: Record<string, unknown>) => await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: body })
    for (const [field, value] of [['redirectUrl', 'http://localhost:3000/oauth/callback'], ['webhookUrl', 'http://127.0.0.1:3001/w']]) {
      const response = await patch({ [field]: value })
      t.equal(response.statusCode, 400, `${field} ${value}`)
      t.match(response.json().message, `body/${field} must not point`)
    }
    for (const bad of ['javascript:alert(document.domain)', 'data:image/svg+xml,<svg onload=alert(1)>', 'ftp://icons.example/i.png', '/admin', '//evil.example/i.png']) {
      const icon = await patch({ iconUrl: bad })
      t.equal(icon.statusCode, 400, `iconUrl ${bad}`)
      t.match(icon.json().message, 'body/iconUrl must be an http(s) URL or an uploaded /media/ path')
      const shots = await patch({ screenshots: ['https://ok.example/1.png', bad] })
      t.equal(shots.statusCode, 400, `screenshots ${bad}`)
      t.match(shots.json().message, 'body/screenshots/1 must be')
    }
    t.equal((await patch({ iconUrl: '/media/med_abc123', screenshots: ['https://cdn.example/1.png', 'http://localhost:4000/2.png'] })).statusCode, 200, 'http(s) and /media/ are fine')
    const created2 = await app.inject({ method: 'POST', url: '/developer/apps', headers: developer.auth, payload: appInput({ screenshots: ['javascript:alert(1)'] }) })
    t.equal(created2.statusCode, 400, 'and at creation')
  })

  t.test('PUT /developer/apps/:id/manifest (dry run too): renderUrl, scriptUrl, admin pages', async (t) => {
    const { app: created } = await createApp(app, developer, { scopes: ['read_business', 'read_orders'] })
    const cases: Array<[string, Record<string, unknown>]> = [
      ['/blocks/0/renderUrl', { blocks: [{ blockType: 'hero', name: 'Hero', renderUrl: 'http://localhost:3000/evil' }] }],
      ['/embeds/0/scriptUrl', { embeds: [{ embedType: 'tag', name: 'Tag', kind: 'GLOBAL_SCRIPT', position: 'head', scriptUrl: 'http://127.0.0.1:3001/store/_assets/x.js' }] }],
      ['/embeds/0/renderUrl', { embeds: [{ embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl: 'http://[::1]:3000/x' }] }],
      ['/adminPages/0/renderUrl', { adminPages: [{ pageId: 'p', title: 'P', renderUrl: 'http://localhost:3000/admin' }] }]
    ]
    for (const dryRun of [true, false]) {
      for (const [path, manifest] of cases) {
        const response = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest${dryRun ? '?dryRun=true' : ''}`, headers: developer.auth, payload: { manifest } })
        t.equal(response.statusCode, 400, `${path}${dryRun ? ' (dry run)' : ''}`)
        t.match(response.json().errors, [{ path, message: "must not point at the platform's own origins (API, admin or storefront)" }])
      }
    }
  })
})

t.test('hook URLs and per-store hosts', async (t) => {
  const origins = createOrigins(testConfig({ STOREFRONT_URL: 'https://{store}.shops.example' }))
  const hooks = { hooks: [{ hookPoint: 'order.validate', url: '/validate' }] }
  const problems = validateManifest(hooks, { scopes: ['read_orders'], webhookUrl: 'http://localhost:3000', production: false, isPlatformOrigin: origins.isPlatformOrigin })
  t.match(problems, [{ path: '/hooks/0/url', message: 'must not point at the platform' }], 'a hook URL on the platform')
  const store = validateManifest({ blocks: [{ blockType: 'b', name: 'B', renderUrl: 'https://rosa.shops.example/b' }] }, { scopes: [], webhookUrl: null, production: false, isPlatformOrigin: origins.isPlatformOrigin })
  t.match(store, [{ path: '/blocks/0/renderUrl', message: 'must not point at the platform' }], "any store's host is the storefront")
})
