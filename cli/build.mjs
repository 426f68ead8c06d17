// Bundles the CLI (with the SDK's source and commander) into one file: what the platform's CLI tarball carries (DESIGN §22).
// `node build.mjs [outdir]`: into ./dist by default; the tests build into a folder of their own, so that one test process
// rebuilding never removes the CLI another one is running.
import { build } from 'esbuild'
import { chmodSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outdir = process.argv[2] === undefined ? here('./dist') : resolve(process.argv[2])

rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: [here('./src/main.ts')],
  outfile: join(outdir, 'app-platform.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['app-platform-source'],
  // commander is CommonJS: its require() of Node built-ins needs a real require inside the ESM bundle
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);" },
  logLevel: 'warning'
})
chmodSync(join(outdir, 'app-platform.js'), 0o755)
