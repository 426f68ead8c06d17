import { evidence, noAnswer, probe, type Probe } from '../http.ts'
import { once, type CheckContext } from '../context.ts'
import { fail, pass, warn, type Check, type Verdict } from '../runner.ts'
import { sameOrigin } from '../origin.ts'

/** Redirects followed from the App URL to the consent screen (an app may pass through its own login first). */
const MAX_HOPS = 3

interface Entry { hops: Probe[], authorize: URL | null, problem: string | null }

/**
 * Visits the App URL as the marketplace's Install button does (`?businessId&business`) and follows the
 * app's own redirects until one leaves for the platform's `/oauth/authorize`. Once per run.
 */
async function visitAppUrl (context: CheckContext, appUrl: string): Promise<Entry> {
  return await once(context, 'app-url', async () => {
    const start = new URL(appUrl)
    start.searchParams.set('businessId', context.business.id)
    start.searchParams.set('business', context.business.slug)
    const hops: Probe[] = []
    let url = start.toString()
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      const answer = await probe(url, { policy: context.policy, clock: context.clock, dispatcher: context.dispatcher, timeoutMs: context.webhookTimeoutMs })
      hops.push(answer)
      if (answer.status === null) return { hops, authorize: null, problem: noAnswer(answer) }
      const location = answer.headers.location
      if (answer.status < 300 || answer.status > 399 || location === undefined) {
        return { hops, authorize: null, problem: `The App URL answered HTTP ${answer.status} instead of redirecting to ${context.adminOrigin}/oauth/authorize` }
      }
      let next: URL
      try { next = new URL(location, url) } catch { return { hops, authorize: null, problem: `The redirect's Location is not a URL: ${location}` } }
      if (sameOrigin(next.origin, context.adminOrigin) && next.pathname === '/oauth/authorize') return { hops, authorize: next, problem: null }
      if (sameOrigin(next.origin, context.adminOrigin) || sameOrigin(next.origin, context.storefrontOrigin)) {
        return { hops, authorize: null, problem: `The App URL redirected to ${next.origin}${next.pathname}, not to /oauth/authorize` }
      }
      url = next.toString()
    }
    return { hops, authorize: null, problem: `No redirect to /oauth/authorize within ${MAX_HOPS + 1} answers` }
  })
}

/** One thing wrong with the authorize request, and what to do about that cause. */
interface AuthorizeProblem { problem: string, fix: string }

/** What the authorize URL gets wrong: response type, client, state, S256 PKCE; each with its own advice. */
function authorizeProblems (authorize: URL, context: CheckContext): AuthorizeProblem[] {
  const q = authorize.searchParams
  const problems: AuthorizeProblem[] = []
  if (q.get('response_type') !== 'code') problems.push({ problem: 'response_type=code is missing', fix: 'Send response_type=code: the platform issues authorization codes only.' })
  const clientId = q.get('client_id')
  if (clientId !== context.app.clientId) {
    problems.push({
      problem: clientId === null ? `there is no client_id (the app's is ${context.app.clientId})` : `client_id is ${JSON.stringify(clientId)}, not the app's ${context.app.clientId}`,
      fix: `Send this app's client id, ${context.app.clientId}, as client_id (the developer portal shows it under the app's credentials): ` +
        'a client id of another app, an old one or a placeholder leads the merchant to the wrong app\'s consent screen or to a refusal.'
    })
  }
  if ((q.get('state') ?? '').length < 8) {
    problems.push({ problem: 'no unguessable state (at least 8 characters)', fix: 'Add a fresh, unguessable state (at least 8 characters) to every authorize request and check it at the callback.' })
  }
  const challenge = q.get('code_challenge') ?? ''
  if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge)) {
    problems.push({ problem: 'no PKCE code_challenge', fix: 'Add a PKCE code_challenge (the base64url SHA-256 of a fresh code_verifier, 43 to 128 characters) to every authorize request, and send the verifier at the code exchange.' })
  }
  if (q.get('code_challenge_method') !== 'S256') problems.push({ problem: 'code_challenge_method is not S256', fix: 'Send code_challenge_method=S256: plain PKCE is refused.' })
  return problems
}

export function oauthChecks (context: CheckContext): Array<Check<CheckContext>> {
  const { app } = context
  const timeoutMs = context.webhookTimeoutMs * (MAX_HOPS + 1) + 1000
  return [
    {
      id: 'oauth.redirect',
      title: 'The redirect URL answers and the install asks for exactly it',
      timeoutMs: timeoutMs + context.webhookTimeoutMs,
      run: async (): Promise<Verdict> => {
        if (context.policy.production && new URL(app.redirectUrl).protocol !== 'https:') {
          return fail(`The redirect URL ${app.redirectUrl} is not https`, 'Serve the OAuth callback over https.')
        }
        // the consent screen's "deny" comes back like this: the callback must answer it, not fall over
        const callback = new URL(app.redirectUrl)
        callback.searchParams.set('error', 'access_denied')
        callback.searchParams.set('state', 'app-check')
        const answer = await probe(callback.toString(), { policy: context.policy, clock: context.clock, dispatcher: context.dispatcher, timeoutMs: context.webhookTimeoutMs, label: 'a declined consent' })
        const shown = [evidence(answer)]
        if (answer.status === null) return fail(noAnswer(answer), 'Make the redirect URL reachable from the platform: it is where merchants land after the consent screen.', shown)
        if (answer.status >= 500) return fail(`The redirect URL answered HTTP ${answer.status} to a declined consent`, 'Answer a callback that carries error=access_denied with a page, not a server error.', shown)
        if (app.appUrl !== null) {
          const entry = await visitAppUrl(context, app.appUrl)
          const sent = entry.authorize?.searchParams.get('redirect_uri')
          if (entry.authorize !== null && sent !== app.redirectUrl) {
            return fail(`The install sends redirect_uri=${JSON.stringify(sent)}, which is not exactly the registered ${app.redirectUrl}`,
              'Send the registered redirect URL, character for character, as redirect_uri.', [...shown, ...entry.hops.map(evidence)])
          }
        }
        return pass(`The redirect URL answered HTTP ${answer.status}${app.appUrl !== null ? ' and the install asks for exactly it' : ''}`, shown)
      }
    },
    {
      id: 'install.app_url',
      title: 'The App URL starts OAuth with state and S256 PKCE',
      timeoutMs,
      run: async (): Promise<Verdict> => {
        if (app.appUrl === null) {
          return warn('The app has no App URL, so merchants cannot install it from the marketplace', 'Set an App URL that starts the OAuth install (DESIGN §15).')
        }
        const entry = await visitAppUrl(context, app.appUrl)
        const shown = entry.hops.map(evidence)
        if (entry.authorize === null) return fail(entry.problem ?? 'No redirect to /oauth/authorize', 'Redirect the App URL to the platform\'s /oauth/authorize with your client_id, redirect_uri, state and an S256 PKCE challenge.', shown)
        const problems = authorizeProblems(entry.authorize, context)
        if (problems.length > 0) {
          return fail(`The App URL leads to /oauth/authorize, but ${problems.map((p) => p.problem).join('; ')}`, problems.map((p) => p.fix).join(' '), shown)
        }
        return pass('The App URL leads to /oauth/authorize with the app\'s client id, a state and an S256 PKCE challenge', shown)
      }
    }
  ]
}
