import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { SPA_ROOT } from './plugins/spa.ts'

/** Seconds between "still building" lines when the output is not a terminal (Vite draws its own progress on one). */
const PROGRESS_EVERY_MS = 5000

/** `npm start` works from a fresh clone: build the admin UI once when its build is missing, saying so as it goes. */
export async function ensureUiBuilt (): Promise<void> {
  if (existsSync(`${SPA_ROOT}/index.html`)) return
  const started = performance.now()
  console.log('Building the admin UI (first start only, about 20 s)…')
  const terminal = process.stdout.isTTY === true
  const ticker = terminal ? null : setInterval(() => { console.log(`  still building the admin UI (${Math.round((performance.now() - started) / 1000)} s)…`) }, PROGRESS_EVERY_MS)
  try {
    const { build } = await import('vite')
    // on a terminal Vite shows the modules it transforms and the files it writes
    await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: terminal ? 'info' : 'warn' })
  } finally {
    if (ticker !== null) clearInterval(ticker)
  }
  console.log(`Admin UI built in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureUiBuilt()
