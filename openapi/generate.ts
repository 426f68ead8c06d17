import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'

export const OPENAPI_FILE = fileURLToPath(new URL('./openapi.json', import.meta.url))

/** The OpenAPI document as committed: built from the routes, independent of the environment it runs in. */
export async function renderOpenApi (): Promise<string> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_SEED: 'false' }, { inMemory: true })
  const app = await buildApp({ config })
  try {
    await app.ready()
    return JSON.stringify(app.swagger(), null, 2) + '\n'
  } finally {
    await app.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, await renderOpenApi())
  console.log(`wrote ${OPENAPI_FILE}`)
}
