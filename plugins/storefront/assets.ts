import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HOST_ENTRY = fileURLToPath(new URL('./assets/host.ts', import.meta.url))
const STYLESHEET = fileURLToPath(new URL('./assets/storefront.css', import.meta.url))
const SHOP_ENTRY = fileURLToPath(new URL('./assets/shop.ts', import.meta.url))
const SHOP_STYLESHEET = fileURLToPath(new URL('./assets/shop.css', import.meta.url))

export interface Asset { body: string, contentType: string }

/** A browser script as one small IIFE: host.ts (the block host, with the SDK's iframe protocol bundled in) or shop.ts. */
export async function buildScript (entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
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
    ['host.js', { body: await buildScript(HOST_ENTRY), contentType: 'text/javascript; charset=utf-8' }],
    ['storefront.css', { body: await readFile(STYLESHEET, 'utf8'), contentType: 'text/css; charset=utf-8' }],
    // the shop pages' script (cart, live quote, checkout; DESIGN §17) and styles
    ['shop.js', { body: await buildScript(SHOP_ENTRY), contentType: 'text/javascript; charset=utf-8' }],
    ['shop.css', { body: await readFile(SHOP_STYLESHEET, 'utf8'), contentType: 'text/css; charset=utf-8' }]
  ])
}
