import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import { CliError, type Context } from '../context.ts'
import { writeManifestFile } from '../manifest-file.ts'

/** Where a new app listens until the developer says otherwise. */
const DEFAULT_APP_URL = 'http://localhost:3002'
/** Not part of a new app: the reference app's own tests and what running it leaves behind. */
const NOT_COPIED = new Set(['test', 'node_modules', 'data', '.env'])

/** The reference app as a template: beside the built CLI (dist/template), or in the repository when run from source. */
function templateDir (): string {
  const candidates = [new URL('./template/', import.meta.url), new URL('../../../examples/reference-app/', import.meta.url)]
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate)
    if (existsSync(join(dir, 'app.manifest.json'))) return dir
  }
  throw new CliError('The app template is missing from this installation of the CLI')
}

/** The SDK of the repository this CLI was built in, when there is one: the new app depends on it until the SDK is on a registry. */
function localSdk (): string | null {
  const dir = fileURLToPath(new URL('../../sdk/', import.meta.url))
  return existsSync(join(dir, 'package.json')) ? dir.replace(/\/$/, '') : null
}

interface Definition { listing: Record<string, unknown> & { name: string, slug: string }, extensions: Record<string, unknown> }

function slugFrom (name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)
  // slugs are unique across the platform: a short random tail keeps `my-app` from colliding
  return `${base.length >= 3 ? base : 'app'}-${randomBytes(2).toString('hex')}`
}

/**
 * `app init <dir>`: a new app from the reference app's template, registered on the platform as a
 * draft; its manifest in app-platform.json (push it with `app push`) and its credentials in .env.
 */
export async function initApp (ctx: Context, dir: string, options: { name?: string, appUrl?: string }): Promise<void> {
  const target = resolve(dir)
  if (existsSync(target) && readdirSync(target).length > 0) throw new CliError(`${target} is not empty: choose a new folder`)
  const appUrl = (options.appUrl ?? DEFAULT_APP_URL).replace(/\/+$/, '')
  let port: string
  try {
    const url = new URL(appUrl)
    port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80'
  } catch {
    throw new CliError(`--app-url must be a URL, like ${DEFAULT_APP_URL}`)
  }
  const source = templateDir()
  const definition = JSON.parse(readFileSync(join(source, 'app.manifest.json'), 'utf8').replaceAll('{{APP_URL}}', appUrl)) as Definition
  const name = options.name ?? basename(target)
  const listing = { ...definition.listing, name, slug: slugFrom(name), version: '0.1.0' }

  const client = ctx.client()
  const created = await ctx.out.spin('Registering the app', () => client.apps.create(listing))

  cpSync(source, target, { recursive: true, filter: (path) => !NOT_COPIED.has(basename(path)) || path === source })
  const template = { ...definition, listing: { ...listing, appUrl: '{{APP_URL}}/', redirectUrl: '{{APP_URL}}/oauth/callback', webhookUrl: '{{APP_URL}}/webhooks' } }
  writeFileSync(join(target, 'app.manifest.json'), `${JSON.stringify(template, null, 2)}\n`)
  const packageFile = join(target, 'package.json')
  const pkg = JSON.parse(readFileSync(packageFile, 'utf8')) as Record<string, unknown> & { scripts: Record<string, string>, dependencies: Record<string, string> }
  delete pkg.scripts.test
  // .env holds the credentials; Node reads it itself (--env-file), no loader needed
  pkg.scripts.start = 'node --env-file=.env --conditions=app-platform-source --import tsx src/main.ts'
  const sdk = localSdk()
  if (sdk !== null) pkg.dependencies['@app-platform/sdk'] = `file:${sdk}`
  writeFileSync(packageFile, `${JSON.stringify({ ...pkg, name: listing.slug, description: `${name}, an App Platform app` }, null, 2)}\n`)
  writeManifestFile(target, { appId: created.app.id, manifest: definition.extensions })
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
    { appId: created.app.id, clientId: created.app.clientId, slug: listing.slug, status: created.app.status, dir: target },
    [
      ctx.out.green(`Created ${name} (${created.app.id}), a draft, in ${target}.`),
      'Credentials are in .env; the manifest is in app-platform.json. Next:',
      `  cd ${dir} && npm install`,
      '  app-platform app push          # save the manifest on the platform',
      '  npm start                      # the app, with .env',
      `  app-platform listen --app ${created.app.id} --forward-to ${appUrl}/webhooks`
    ].join('\n')
  )
}
