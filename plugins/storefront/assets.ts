import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HOST_ENTRY = fileURLToPath(new URL('./assets/host.ts', import.meta.url))
const STYLESHEET = fileURLToPath(new URL('./assets/storefront.css', import.meta.url))

export interface Asset { body: string, contentType: string }

/** The block host script: host.ts with the SDK's iframe protocol bundled in, as one small IIFE. */
export async function buildHostScript (): Promise<string> {
  const result = await build({
    entryPoints: [HOST_ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent'
  })
  return result.outputFiles[0].text
}

/** Built once at boot, served from memory. */
export async function loadAssets (): Promise<Map<string, Asset>> {
  return new Map([
    ['host.js', { body: await buildHostScript(), contentType: 'text/javascript; charset=utf-8' }],
    ['storefront.css', { body: await readFile(STYLESHEET, 'utf8'), contentType: 'text/css; charset=utf-8' }]
  ])
}
