import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/**
 * The browser scripts (src/browser/*.ts, written against `@app-platform/sdk/browser`) bundled once at
 * start-up, in memory: esbuild takes a few tens of milliseconds and the app needs no build step.
 */
export const BROWSER_ENTRIES = ['block', 'admin'] as const
export type BrowserEntry = typeof BROWSER_ENTRIES[number]

export async function bundleBrowserScripts (): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: Object.fromEntries(BROWSER_ENTRIES.map((name) => [name, fileURLToPath(new URL(`./browser/${name}.ts`, import.meta.url))])),
    bundle: true,
    write: false,
    outdir: '/assets',
    format: 'iife',
    target: 'es2020',
    minify: true,
    // in this repository the SDK resolves to its TypeScript sources (sdk/package.json "exports")
    conditions: ['app-platform-source'],
    logLevel: 'silent'
  })
  return new Map(result.outputFiles.map((file) => [file.path.replace(/^.*\//, ''), file.text]))
}

/** One small stylesheet for every page of the app (blocks, widget, admin page, install pages). */
export const STYLESHEET = `
:root { --ink: #1d2430; --muted: #5b6472; --line: #e3e6ea; --paper: #fff; --accent: #c2410c; --soft: #fff7ed; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); }
main { max-width: 760px; margin: 0 auto; padding: 24px 16px; }
h1, h2, h3 { line-height: 1.25; margin: 0 0 8px; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; } h3 { font-size: 1rem; }
p { margin: 0 0 8px; }
a { color: var(--accent); }
.muted { color: var(--muted); }
.button { display: inline-block; padding: 10px 18px; border: 0; border-radius: 8px; background: var(--accent); color: #fff; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
.button:focus-visible, a:focus-visible { outline: 3px solid #fdba74; outline-offset: 2px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 16px; margin-bottom: 16px; overflow-wrap: anywhere; }
.error { border-color: #fca5a5; background: #fef2f2; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 12px; margin-bottom: 16px; }
.stat { border: 1px solid var(--line); border-radius: 10px; padding: 12px; }
.stat b { display: block; font-size: 1.35rem; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 6px 4px; border-bottom: 1px solid var(--line); font-size: .9rem; }
/* an order's number, status and amount never break inside a word; the time wraps between its date and its hour */
.orders th, .orders td { overflow-wrap: normal; }
.orders td:not(:last-child) { white-space: nowrap; }
.scroll { overflow-x: auto; }
.block { padding: 14px 16px; }
.block h2 { display: flex; align-items: baseline; gap: 8px; flex-wrap: wrap; }
.stars { color: var(--accent); letter-spacing: 1px; }
.reviews { list-style: none; margin: 8px 0 0; padding: 0; display: grid; gap: 8px; }
.reviews li { padding: 8px 10px; border-radius: 8px; background: var(--soft); }
.reviews q { display: block; }
.widget { height: 100vh; padding: 14px 16px; background: var(--soft); display: flex; flex-direction: column; justify-content: center; gap: 6px; }
.widget .badge { align-self: flex-start; font-size: .75rem; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; color: #fff; background: var(--accent); border-radius: 999px; padding: 2px 10px; }
.widget ul { margin: 0; padding-left: 18px; }
`
