import { Type, type Static } from '@sinclair/typebox'

export const DownloadSchema = Type.Object({
  name: Type.String({ examples: ['@app-platform/sdk'] }),
  version: Type.String({ examples: ['0.1.0'] }),
  url: Type.String({ format: 'uri', description: 'The versioned tarball: `npm i <url>`', examples: ['https://platform.example/downloads/app-platform-sdk-0.1.0.tgz'] }),
  integrity: Type.String({ pattern: '^sha512-', description: 'npm\'s integrity of the tarball (sha512, base64)' })
}, { title: 'Download' })
export type Download = Static<typeof DownloadSchema>

export const DownloadsSchema = Type.Object({
  sdk: DownloadSchema,
  cli: DownloadSchema
}, { title: 'Downloads' })

export const TarballParams = Type.Object({
  file: Type.String({ minLength: 1, maxLength: 100, pattern: '^app-platform-(sdk|cli)-[0-9A-Za-z.+-]+\\.tgz$', description: 'app-platform-sdk-<version>.tgz or app-platform-cli-<version>.tgz' })
})

export const TarballSchema = Type.Unknown({ description: 'The npm tarball (application/gzip)' })
