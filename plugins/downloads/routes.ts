import { createReadStream } from 'node:fs'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { errorResponses } from '../../server/schemas.ts'
import { PACKAGES, type PackageKey, type Tarball } from './build.ts'
import { httpError, notFound } from './errors.ts'
import { DownloadsSchema, TarballParams, TarballSchema, type Download } from './schemas.ts'
import type { Downloads, Outcome } from './service.ts'

const tags = ['downloads']

/** A package that could not be built: 503 naming it; the rest of the platform is unaffected. */
function unavailable (key: PackageKey, outcome: Extract<Outcome, { ok: false }>) {
  return httpError(503, 'downloads_unavailable', `The ${key === 'sdk' ? 'SDK' : 'CLI'} tarball could not be built: ${outcome.error}`, { package: key })
}

function built (key: PackageKey, outcome: Outcome): Tarball {
  if (!outcome.ok) throw unavailable(key, outcome)
  return outcome.tarball
}

/** Where this request reached the platform: the URLs it gives work from wherever the developer called. */
const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`

/** `GET /downloads` and the tarballs (DESIGN §22): npm installs them by URL, no registry of the platform's own. */
const downloadsRoutes: FastifyPluginAsyncTypebox<{ downloads: Downloads }> = async (fastify, { downloads }) => {
  const describe = (request: FastifyRequest, tarball: Tarball): Download =>
    ({ name: tarball.name, version: tarball.version, url: `${originOf(request)}/downloads/${tarball.fileName}`, integrity: tarball.integrity })

  fastify.get('/', {
    schema: {
      tags, security: [], operationId: 'listDownloads', summary: 'The SDK and CLI tarballs this platform serves',
      description: '`npm i <sdk.url>` installs the SDK (ESM, CJS, types) in any folder; `npx <cli.url> --help` runs the CLI. Built from the platform\'s own sources on first need; 503 `downloads_unavailable` while one cannot be built.',
      response: { 200: DownloadsSchema, ...errorResponses(400, 503) }
    }
  }, async (request) => {
    const all = await downloads.all()
    return { sdk: describe(request, built('sdk', all.sdk)), cli: describe(request, built('cli', all.cli)) }
  })

  for (const key of PACKAGES) {
    // a redirect only, for people and npm; the document names the versioned files (GET /downloads gives their URLs)
    fastify.get(`/app-platform-${key}.tgz`, { schema: { hide: true } }, async (request, reply) => {
      const tarball = built(key, await downloads.outcome(key))
      return await reply.redirect(`${originOf(request)}/downloads/${tarball.fileName}`, 302)
    })
  }

  fastify.get('/:file', {
    schema: {
      tags, security: [], operationId: 'downloadTarball', summary: 'A versioned tarball', params: TarballParams,
      description: 'The file `GET /downloads` names (npm\'s tarball layout, `package/…`); another version than the current one is a 404. `/downloads/app-platform-sdk.tgz` and `/downloads/app-platform-cli.tgz` are 302s to the current files.',
      response: { 200: TarballSchema, ...errorResponses(400, 404, 503) }
    }
  }, async (request, reply) => {
    const key: PackageKey = request.params.file.startsWith('app-platform-sdk-') ? 'sdk' : 'cli'
    const tarball = built(key, await downloads.outcome(key))
    if (tarball.fileName !== request.params.file) throw notFound('download_not_found', `${request.params.file} (this platform serves ${tarball.fileName})`)
    // the name carries the version, and a version's content changes only with the sources: an hour is safe
    return await reply.type('application/gzip').header('cache-control', 'public, max-age=3600').header('etag', `"${tarball.integrity}"`)
      .send(createReadStream(tarball.file))
  })
}

export default downloadsRoutes
