/**
 * `npm test`'s pre-step: the admin UI build the SPA tests serve, and tap built with the plugins
 * package.json names. tap rebuilds itself when they differ, but only after it has computed the
 * loaders of the run, so the first run after `npm ci` would load the TypeScript plugin's loader
 * (ts-node, ≈ 3.5 s of CPU) into every test process beside tsx.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { TapConfig } from '@tapjs/config'
import { signature } from '@tapjs/test'
import { ensureUiBuilt } from '../server/build-ui.ts'

await ensureUiBuilt()
const config = await TapConfig.load()
if (config.pluginSignature !== signature) {
  const tap = createRequire(import.meta.url).resolve('tap/package.json').replace(/package\.json$/, 'dist/esm/run.mjs')
  execFileSync(process.execPath, [tap, 'build'], { stdio: 'inherit' })
}
