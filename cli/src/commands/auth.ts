import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { AppApiError } from '@app-platform/sdk'
import { CliError, type Context } from '../context.ts'

/** RFC 8628 §3.5: slow_down adds 5 seconds to the polling interval. */
const SLOW_DOWN_STEP_SECONDS = 5

/** `login`: device authorization; prints the code and where to enter it, polls until the developer decides. */
export async function login (ctx: Context): Promise<void> {
  const client = ctx.anonymous()
  const device = await client.device.start(`app-platform CLI on ${hostname()}`)
  const shown = {
    userCode: device.user_code,
    verificationUri: device.verification_uri,
    verificationUriComplete: device.verification_uri_complete,
    expiresIn: device.expires_in
  }
  ctx.out.result(
    shown,
    [
      `Your code: ${ctx.out.bold(device.user_code)}`,
      `Open ${device.verification_uri_complete}`,
      `(or ${device.verification_uri} and enter the code) while signed in as a developer. It expires in ${Math.round(device.expires_in / 60)} minutes.`
    ].join('\n')
  )
  let interval = device.interval
  const token = await ctx.out.spin('Waiting for approval in the browser', async () => {
    for (;;) {
      await sleep(interval * 1000)
      try {
        return await client.device.poll(device.device_code)
      } catch (error) {
        const code = error instanceof AppApiError ? error.error : null
        if (code === 'authorization_pending') continue
        if (code === 'slow_down') { interval += SLOW_DOWN_STEP_SECONDS; continue }
        if (code === 'expired_token') throw new CliError('The code expired before it was approved: run `app-platform login` again')
        if (code === 'access_denied') throw new CliError('The login was denied in the browser; nothing was stored')
        throw error
      }
    }
  })
  const expiresAt = new Date(Date.now() + token.expires_in * 1000).toISOString()
  ctx.credentials.set(ctx.server, { token: token.access_token, email: '', expiresAt })
  const me = await ctx.client().whoami()
  ctx.credentials.set(ctx.server, { token: token.access_token, email: me.user.email, expiresAt })
  ctx.out.result({ loggedIn: true, email: me.user.email, server: ctx.server, expiresAt }, ctx.out.green(`Logged in to ${ctx.server} as ${me.user.email} until ${expiresAt.slice(0, 10)}.`))
}

/** `logout`: revokes the token on the platform and forgets it here (forgotten even when the platform refuses it already). */
export async function logout (ctx: Context): Promise<void> {
  const stored = ctx.credentials.get(ctx.server)
  if (stored === null) {
    ctx.out.result({ loggedOut: true, revoked: false, server: ctx.server }, `Not logged in to ${ctx.server}.`)
    return
  }
  let revoked = true
  try {
    await ctx.client().logout()
  } catch (error) {
    if (!(error instanceof AppApiError) || error.statusCode !== 401) throw error
    revoked = false
  }
  ctx.credentials.remove(ctx.server)
  ctx.out.result({ loggedOut: true, revoked, server: ctx.server }, `Logged out of ${ctx.server}${revoked ? '; the token is revoked' : ''}.`)
}

/** `whoami`: the developer the stored token acts as. */
export async function whoami (ctx: Context): Promise<void> {
  const me = await ctx.client().whoami()
  ctx.out.result(
    { email: me.user.email, userId: me.user.id, server: ctx.server, token: me.token },
    `${me.user.email} on ${ctx.server}${me.token === null ? '' : ` (CLI token ${me.token.name}, until ${me.token.expiresAt.slice(0, 10)})`}`
  )
}
