import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { versionedDocument } from '../plugins/api-versions/index.ts'
import { API_VERSIONS, type ApiVersion } from '../sdk/src/contract/api-versions.ts'

export const OPENAPI_FILE = fileURLToPath(new URL('./openapi.json', import.meta.url))
/** Each API version's document (GET /openapi/{version}.json), committed beside the routes' one and linted like it. */
export const versionFile = (version: ApiVersion): string => fileURLToPath(new URL(`./versions/${version}.json`, import.meta.url))

const render = (doc: unknown): string => JSON.stringify(doc, null, 2) + '\n'

/** The OpenAPI documents as committed: built from the routes, independent of the environment they run in. */
export async function renderOpenApiDocuments (): Promise<{ main: string, versions: Record<ApiVersion, string> }> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false' }, { inMemory: true })
  const app = await buildApp({ config })
  try {
    await app.ready()
    const doc = app.swagger() as Record<string, any>
    const versions = Object.fromEntries(API_VERSIONS.map((version) => [version, render(versionedDocument(doc, version))])) as Record<ApiVersion, string>
    return { main: render(doc), versions }
  } finally {
    await app.close()
  }
}

/** The routes' document (openapi/openapi.json). */
export async function renderOpenApi (): Promise<string> {
  return (await renderOpenApiDocuments()).main
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { main, versions } = await renderOpenApiDocuments()
  writeFileSync(OPENAPI_FILE, main)
  console.log(`wrote ${OPENAPI_FILE}`)
  mkdirSync(fileURLToPath(new URL('./versions/', import.meta.url)), { recursive: true })
  for (const version of API_VERSIONS) {
    writeFileSync(versionFile(version), versions[version])
    console.log(`wrote ${versionFile(version)}`)
  }
}
