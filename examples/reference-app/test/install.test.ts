import t from 'tap'
import { consent, install, openAppUrl, stage, startReference } from './fixture.ts'
import { openStore } from '../src/store.ts'

t.test('GET / (App URL) and GET /oauth/callback', async (t) => {
  const s = await stage(t)

  t.test('the App URL starts OAuth with state and PKCE, the callback stores the installation', async (t) => {
    const browser = await openAppUrl(s)
    t.equal(browser.start.status, 302)
    t.equal(browser.authorize.origin + browser.authorize.pathname, `${s.platform.origins.adminUrl}/oauth/authorize`, 'to the consent screen on ADMIN_URL')
    t.match(Object.fromEntries(browser.authorize.searchParams), {
      response_type: 'code', client_id: s.clientId, redirect_uri: `${s.appUrl}/oauth/callback`, state: /^[\w-]{43}$/, code_challenge: /^[\w-]{43}$/, code_challenge_method: 'S256'
    })
    t.match(browser.start.headers.get('set-cookie'), /^oauth_state=[\w-]+; Path=\/oauth\/callback; HttpOnly; SameSite=Lax/, 'the state is bound to this browser')

    const callback = await consent(s, browser.authorize)
    const done = await fetch(callback, { headers: { cookie: browser.cookie } })
    t.equal(done.status, 200)
    const page = await done.text()
    t.match(page, `data-installed="${s.merchant.businessId}"`)
    const stored = s.reference.reference.store.installation(s.merchant.businessId)
    t.match(stored, { businessId: s.merchant.businessId, businessSlug: s.merchant.slug, accessToken: /^fbat_/, webhookSecret: /^whsec_/, installationId: /^inst_/ })
    t.ok(stored?.scopes.includes('write_payments'), 'every scope of the listing granted')
    t.match(page, `href="${s.platform.origins.adminUrl}/admin/apps?installed=${stored?.installationId ?? ''}"`, 'back to the admin by the admin_return_url the platform gave')

    const listed = (await s.platform.inject({ url: '/merchant/installations', headers: s.merchant.auth })).json().data
    t.equal(listed.find((i: { installationId: string }) => i.installationId === stored?.installationId)?.app.slug, 'reference-app', 'the platform lists the install')

    const again = await fetch(callback, { headers: { cookie: browser.cookie } })
    t.equal(again.status, 400, 'a callback works once')
  })

  t.test('refuses a callback from another browser, a forged state, and a declined consent', async (t) => {
    const browser = await openAppUrl(s)
    const callback = await consent(s, browser.authorize)
    t.equal((await fetch(callback)).status, 400, 'no state cookie')
    t.equal((await fetch(callback, { headers: { cookie: 'oauth_state=forged' } })).status, 400, 'another state')

    const declined = await openAppUrl(s)
    const back = await consent(s, declined.authorize, 'deny')
    t.equal(back.searchParams.get('error'), 'access_denied')
    const answer = await fetch(back, { headers: { cookie: declined.cookie } })
    t.equal(answer.status, 400)
    const declinedPage = await answer.text()
    t.match(declinedPage, /You declined the installation/)
    t.match(declinedPage, `href="${s.platform.origins.adminUrl}/admin/apps"`, 'and offers the way back to the admin')
  })

  t.test('installations survive a restart of the app', async (t) => {
    await install(s)
    const restarted = await startReference(t, s.baseUrl, s.platform.origins.adminUrl, s.dataDir)
    t.match(restarted.reference.store.installation(s.merchant.businessId), { businessId: s.merchant.businessId, accessToken: /^fbat_/ })
    t.match(restarted.reference.store.credentials(), { clientId: s.clientId })
    t.match(openStore(s.dataDir).installation(s.merchant.businessId), { businessId: s.merchant.businessId }, 'it is on disk')
  })

  t.test('without query parameters the App URL is a home page; without credentials nothing starts', async (t) => {
    const home = await fetch(`${s.appUrl}/`)
    t.equal(home.status, 200)
    t.match(await home.text(), /Install on my store/)
    t.equal((await fetch(`${s.appUrl}/install`, { redirect: 'manual' })).status, 302)

    const bare = await startReference(t, s.baseUrl, s.platform.origins.adminUrl, `${s.dataDir}/empty`)
    t.equal((await fetch(`${bare.reference.urls.appUrl}/?businessId=x`, { redirect: 'manual' })).status, 503)
  })
})
