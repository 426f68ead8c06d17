import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { createInterface } from 'node:readline/promises'
import { SCOPES } from '@app-platform/sdk'
import { CliError, type Context } from '../context.ts'
import { writeManifestFile } from '../manifest-file.ts'
import { APP_SERVER } from './app-template.ts'

/** Where a new app listens: no platform default uses it (the platform's 3000 and 3001, the reference app's 3002). */
export const DEFAULT_PORT = 8787

function slugFrom (name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)
  // slugs are unique across the platform: a short random tail keeps `my-app` from colliding
  return `${base.length >= 3 ? base : 'app'}-${randomBytes(2).toString('hex')}`
}

/** The scopes of --scopes, checked; asked for at a terminal when not given. The platform needs at least one. */
async function chooseScopes (ctx: Context, option: string | undefined): Promise<string[]> {
  let text = option
  if (text === undefined) {
    if (ctx.out.json || process.stdin.isTTY !== true) throw new CliError(`Say which scopes the app needs with --scopes (comma-separated: ${SCOPES.join(', ')})`, { exitCode: 2 })
    const prompt = createInterface({ input: process.stdin, output: process.stderr })
    text = await prompt.question(`Scopes the app needs (comma-separated; ${SCOPES.join(', ')}): `)
    prompt.close()
  }
  const scopes = [...new Set(text.split(',').map((scope) => scope.trim()).filter((scope) => scope !== ''))]
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope))
  if (unknown.length > 0) throw new CliError(`Unknown scope${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}: one of ${SCOPES.join(', ')}`, { exitCode: 2 })
  if (scopes.length === 0) throw new CliError(`An app needs at least one scope: one of ${SCOPES.join(', ')}`, { exitCode: 2 })
  return scopes
}

/** The SDK tarball of the platform the app is made against (DESIGN §22): the app installs it by URL, never from a checkout. */
async function sdkUrl (ctx: Context): Promise<string> {
  const downloads = await ctx.anonymous().request<{ sdk: { url: string } }>('GET', '/downloads')
  return downloads.sdk.url
}

/**
 * `app init <dir>`: a standalone app, registered on the platform as a draft: a package.json that
 * depends on the platform's SDK tarball, a small node:http server (install, webhooks, hooks), its
 * settings and manifest in app-platform.json (push them with `app push`) and its credentials in .env.
 */
export async function initApp (ctx: Context, dir: string, options: { name?: string, appUrl?: string, port?: string, scopes?: string }): Promise<void> {
  const target = resolve(dir)
  if (existsSync(target) && readdirSync(target).length > 0) throw new CliError(`${target} is not empty: choose a new folder`)
  const port = Number(options.port ?? DEFAULT_PORT)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--port must be a port number (got ${options.port ?? ''})`, { exitCode: 2 })
  const appUrl = (options.appUrl ?? `http://localhost:${port}`).replace(/\/+$/, '')
  try {
    if (!/^https?:$/.test(new URL(appUrl).protocol)) throw new Error('not http')
  } catch {
    throw new CliError(`--app-url must be an http(s) URL, like http://localhost:${port}`, { exitCode: 2 })
  }
  const scopes = await chooseScopes(ctx, options.scopes)
  const name = options.name ?? basename(target)
  const settings = {
    name,
    description: `${name}, an App Platform app`,
    category: 'other',
    scopes,
    appUrl: `${appUrl}/`,
    redirectUrl: `${appUrl}/oauth/callback`,
    webhookUrl: `${appUrl}/webhooks`,
    webhookEvents: [] as string[],
    apiVersion: null,
    signatureScheme: 'spec',
    // no plans: the app is free (DESIGN §23); plans added here are pushed like the other settings
    pricing: { plans: [] }
  }
  const sdk = await ctx.out.spin('Finding the SDK', () => sdkUrl(ctx))
  const client = ctx.client()
  const slug = slugFrom(name)
  const created = await ctx.out.spin('Registering the app', () => client.apps.create({
    name, slug, description: settings.description, category: settings.category, scopes, appUrl: settings.appUrl, redirectUrl: settings.redirectUrl,
    webhookUrl: settings.webhookUrl, webhookEvents: [], version: '0.1.0'
  }))

  mkdirSync(target, { recursive: true })
  const pkg = {
    name: slug,
    version: '0.1.0',
    private: true,
    description: settings.description,
    type: 'module',
    engines: { node: '>=20.19' },
    // .env holds the credentials; Node reads it itself (--env-file), no loader needed
    scripts: { start: 'node --env-file=.env server.js' },
    dependencies: { '@app-platform/sdk': sdk }
  }
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
  writeFileSync(join(target, 'server.js'), APP_SERVER)
  writeManifestFile(target, { appId: created.app.id, settings, manifest: {} })
  const env = [
    '# Written by `app-platform app init`: this app\'s credentials. Keep this file out of version control.',
    `PLATFORM_URL=${ctx.server}`,
    `CLIENT_ID=${created.app.clientId}`,
    `CLIENT_SECRET=${created.clientSecret}`,
    `APP_URL=${appUrl}`,
    `PORT=${port}`,
    ''
  ].join('\n')
  writeFileSync(join(target, '.env'), env, { mode: 0o600 })
  writeFileSync(join(target, '.gitignore'), 'node_modules/\ndata/\n.env\n')

  ctx.out.result(
    { appId: created.app.id, clientId: created.app.clientId, slug, status: created.app.status, dir: target, port, sdk },
    [
      ctx.out.green(`Created ${name} (${created.app.id}), a draft, in ${target}.`),
      'Credentials are in .env; the settings and manifest are in app-platform.json. Next:',
      `  cd ${dir} && npm install`,
      '  npm start                      # the app, on port ' + String(port),
      '  app-platform app push          # after editing app-platform.json',
      `  app-platform listen --forward-to ${appUrl}`
    ].join('\n')
  )
}
