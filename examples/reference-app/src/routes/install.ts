import type { FastifyInstance, FastifyReply } from 'fastify'
import { buildAuthorizeUrl, createPkcePair, createState, exchangeCode, OAuthError, parseAuthorizeCallback } from '@app-platform/sdk'
import type { Context } from '../context.ts'
import { escapeHtml, page } from '../html.ts'

/*
 * The install entry (DESIGN §15). The marketplace's Install button sends the merchant to our App URL
 * with `businessId` and `business`; we start OAuth with a fresh `state` and a PKCE pair, remember both
 * (server-side, plus the state in a cookie of this browser), and send the merchant to the consent
 * screen. The callback checks the state, exchanges the code (HTTP Basic client credentials, PKCE
 * verifier) and stores the installation's access token and webhook secret.
 */

export const CALLBACK_PATH = '/oauth/callback'
const STATE_COOKIE = 'oauth_state'

function cookie (header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return decodeURIComponent(value.join('='))
  }
  return null
}

function problem (reply: FastifyReply, statusCode: number, title: string, message: string, back: string | null = null) {
  const link = back === null ? '' : `<p><a class="button" href="${escapeHtml(back)}">Back to your admin</a></p>`
  return reply.code(statusCode).type('text/html; charset=utf-8')
    .send(page({ title, body: `<main><section class="card error" role="alert"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${link}</section></main>` }))
}

export default async function installRoutes (fastify: FastifyInstance, { context }: { context: Context }) {
  const redirectUri = () => `${context.urls.appUrl}${CALLBACK_PATH}`

  function startInstall (reply: FastifyReply, businessId: string | undefined, business: string | undefined) {
    const credentials = context.store.credentials()
    if (credentials === null) return problem(reply, 503, 'Not configured yet', 'This app has no client credentials yet (CLIENT_ID and CLIENT_SECRET).')
    const state = createState()
    const pkce = createPkcePair()
    context.store.startAuthorization({
      state, codeVerifier: pkce.codeVerifier, businessId: businessId ?? null, businessSlug: business === undefined || business === '' ? null : business
    })
    const authorizeUrl = buildAuthorizeUrl({
      adminUrl: context.urls.adminUrl, clientId: credentials.clientId, redirectUri: redirectUri(), state, codeChallenge: pkce.codeChallenge
    })
    return reply
      .header('set-cookie', `${STATE_COOKIE}=${encodeURIComponent(state)}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=600`)
      .redirect(authorizeUrl, 302)
  }

  // The App URL: `?businessId=…&business=…` from the marketplace starts the install; without them, a home page.
  fastify.get<{ Querystring: { businessId?: string, business?: string } }>('/', async (request, reply) => {
    const { businessId, business } = request.query
    if (businessId !== undefined || business !== undefined) return startInstall(reply, businessId, business)
    return reply.type('text/html; charset=utf-8').send(page({
      title: 'Reference app',
      body: `<main><h1>Reference app</h1>
<p>An App Platform app built on <code>@app-platform/sdk</code>: reviews highlights for the storefront, a loyalty discount,
free delivery from a threshold, a test wallet at checkout and an admin page.</p>
<p><a class="button" href="/install">Install on my store</a></p>
<p class="muted">Merchants usually arrive here from the marketplace’s Install button.</p></main>`
    }))
  })

  fastify.get('/install', async (_request, reply) => startInstall(reply, undefined, undefined))

  fastify.get(CALLBACK_PATH, async (request, reply) => {
    const credentials = context.store.credentials()
    if (credentials === null) return problem(reply, 503, 'Not configured yet', 'This app has no client credentials yet.')
    const expected = cookie(request.headers.cookie, STATE_COOKIE) ?? ''
    let code: string
    try {
      code = parseAuthorizeCallback(request.url, expected).code
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'access_denied') return problem(reply, 400, 'Not installed', 'You declined the installation. Nothing was stored.', `${context.urls.adminUrl}/admin/apps`)
      return problem(reply, 400, 'Install link expired', 'This link does not belong to an install started in this browser. Start again from the marketplace.')
    }
    const pending = context.store.takeAuthorization(expected)
    if (pending === null) return problem(reply, 400, 'Install link expired', 'Start again from the marketplace (an install must finish within 10 minutes).')
    let token
    try {
      token = await exchangeCode({
        baseUrl: context.urls.platformUrl, clientId: credentials.clientId, clientSecret: credentials.clientSecret,
        code, redirectUri: redirectUri(), codeVerifier: pending.codeVerifier, fetch: context.fetch
      })
    } catch (error) {
      request.log.warn({ err: error }, 'code exchange failed')
      return problem(reply, 502, 'Install failed', 'The platform did not accept the authorization code. Start again from the marketplace.')
    }
    context.store.saveInstallation({
      installationId: token.installation_id,
      businessId: token.business_id,
      businessSlug: pending.businessId === token.business_id || pending.businessId === null ? pending.businessSlug : null,
      accessToken: token.access_token,
      webhookSecret: token.webhook_secret,
      scopes: token.scope.split(' ').filter((scope) => scope !== ''),
      installedAt: context.now().toISOString()
    })
    request.log.info({ businessId: token.business_id, installationId: token.installation_id }, 'installed')
    // the platform names where to send the merchant back (its admin's apps screen, this install marked)
    const backToAdmin = token.admin_return_url ?? `${context.urls.adminUrl}/admin/apps`
    return reply
      .header('set-cookie', `${STATE_COOKIE}=; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`)
      .type('text/html; charset=utf-8')
      .send(page({
        title: 'Installed',
        body: `<main><section class="card" role="status" data-installed="${escapeHtml(token.business_id)}"><h1>Installed</h1>
<p>The reference app is installed. Place its “Reviews highlights” block on a page in the theme editor, and turn on its loyalty widget.</p>
<p><a class="button" href="${escapeHtml(backToAdmin)}">Back to your admin</a></p></section></main>`
      }))
  })
}
