import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { SPA_ROOT } from './plugins/spa.ts'

/** `npm start` works from a fresh clone: build the admin UI once when its build is missing. */
export async function ensureUiBuilt (): Promise<void> {
  if (existsSync(`${SPA_ROOT}/index.html`)) return
  console.log('Building the admin UI (first start)…')
  const { build } = await import('vite')
  await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureUiBuilt()
