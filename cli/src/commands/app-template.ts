/**
 * The server of a new app (`app init`): plain JavaScript on node:http and the SDK, nothing to build.
 * It installs itself (OAuth from its App URL), verifies webhook deliveries and answers hook calls at
 * the paths the platform calls: the webhook URL, and the webhook URL plus each hook's `url`; the
 * endpoints of the app's own webhook registrations come from an `events.js` beside it, when there is one.
 */
export const APP_SERVER = `// An App Platform app: install (OAuth), webhooks and checkout hooks. Run it with \`npm start\`.
import { createServer } from 'node:http'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import {
  buildAuthorizeUrl, createState, exchangeCode, parseAuthorizeCallback, readRawBody, verifyHookRequest, verifyWebhook
} from '@app-platform/sdk'

const { PLATFORM_URL, CLIENT_ID, CLIENT_SECRET, APP_URL, PORT } = process.env
const redirectUri = \`\${APP_URL}/oauth/callback\`
const STORE = 'data/installation.json'
const states = new Set()

/** The installation's token and webhook secret, kept across restarts in data/. */
function installation () {
  try { return JSON.parse(readFileSync(STORE, 'utf8')) } catch { return null }
}

/**
 * Endpoints of webhooks the app registers itself (POST /webhooks), each at its own path with its own
 * secret: events.js, when you write one, exports \`endpoints\`: path → (rawBody, headers) => void,
 * which throws when the signature is wrong.
 */
const endpoints = existsSync('events.js') ? (await import('./events.js')).endpoints : {}

/** What each hook answers, by hook point: edit these to change the checkout. */
const hooks = {
  'checkout.validate': () => ({ valid: true }),
  'checkout.shipping_rates': () => ({ fee: 0 })
}

createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', APP_URL)
  const send = (status, body, type = 'application/json') => {
    response.writeHead(status, { 'content-type': type })
    response.end(typeof body === 'string' ? body : JSON.stringify(body))
  }
  try {
    if (request.method === 'GET' && url.pathname === '/') {
      // the App URL: the platform sends the developer (Test install) or a merchant here to install
      const state = createState()
      states.add(state)
      response.writeHead(302, { location: buildAuthorizeUrl({ adminUrl: PLATFORM_URL, clientId: CLIENT_ID, redirectUri, state }) })
      return response.end()
    }
    if (request.method === 'GET' && url.pathname === '/oauth/callback') {
      const state = url.searchParams.get('state') ?? ''
      if (!states.delete(state)) return send(400, { error: 'unknown state' })
      const { code } = parseAuthorizeCallback(url, state)
      const token = await exchangeCode({ baseUrl: PLATFORM_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, code, redirectUri })
      mkdirSync('data', { recursive: true })
      writeFileSync(STORE, JSON.stringify({ accessToken: token.access_token, webhookSecret: token.webhook_secret, businessId: token.business_id }))
      console.log(\`installed on \${token.business_id} (\${token.installation_id})\`)
      return send(200, '<h1>Installed</h1><p>The app has its token and webhook secret.</p>', 'text/html')
    }
    if (request.method === 'POST' && Object.hasOwn(endpoints, url.pathname)) {
      endpoints[url.pathname](await readRawBody(request), request.headers)
      return send(200, { ok: true })
    }
    if (request.method === 'POST' && url.pathname.startsWith('/webhooks')) {
      const secret = installation()?.webhookSecret
      if (secret === undefined) return send(503, { error: 'not installed yet' })
      const body = await readRawBody(request)
      if (url.pathname === '/webhooks') {
        const event = verifyWebhook(body, request.headers, secret)
        console.log(\`webhook \${event.event} \${event.eventId ?? ''}\`)
        return send(200, { ok: true })
      }
      const call = verifyHookRequest(body, request.headers, secret)
      const answer = hooks[call.hookPoint]
      console.log(\`hook \${call.hookPoint}\`)
      return answer === undefined ? send(404, { error: 'no such hook' }) : send(200, answer(call))
    }
    send(404, { error: 'not found' })
  } catch (error) {
    // a bad signature or a refused exchange: the platform sees a 401 and retries
    console.error(error.message)
    send(401, { error: error.message })
  }
}).listen(Number(PORT), () => console.log(\`listening on \${APP_URL}\`))
`
