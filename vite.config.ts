import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import preact from '@preact/preset-vite'
import { DEV_PROXY_PATTERN } from './server/api-prefixes.ts'
import { manifestJsonSchema } from './openapi/manifest-schema.ts'

/** `virtual:manifest-schema`: the published manifest schema (openapi/openapi.json), for the portal's manifest editor. */
function manifestSchema (): Plugin {
  const id = 'virtual:manifest-schema'
  const openapi = fileURLToPath(new URL('./openapi/openapi.json', import.meta.url))
  return {
    name: 'manifest-schema',
    resolveId: (source) => source === id ? `\0${id}` : null,
    load (resolved) {
      if (resolved !== `\0${id}`) return null
      this.addWatchFile(openapi)
      return `export default ${JSON.stringify(manifestJsonSchema(JSON.parse(readFileSync(openapi, 'utf8'))))}`
    }
  }
}

/**
 * codemirror-json-schema's markdown module starts a shiki highlighter (WebAssembly) when imported: the admin's
 * CSP refuses it, with a console error. Its importers get a plain renderer instead (plain-markdown.ts).
 */
function plainSchemaMarkdown (): Plugin {
  const replacement = fileURLToPath(new URL('./admin-ui/src/components/manifest-editor/plain-markdown.ts', import.meta.url))
  return {
    name: 'plain-schema-markdown',
    enforce: 'pre',
    resolveId: (source, importer) => importer?.includes('codemirror-json-schema') === true && /\/utils\/markdown(\.js)?$/.test(source) ? replacement : null
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('./admin-ui', import.meta.url)),
  plugins: [preact(), manifestSchema(), plainSchemaMarkdown()],
  // the manifest editor's chunk (CodeMirror with its JSON Schema support, ~650 kB) loads only on the manifest tab
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  server: { proxy: { [DEV_PROXY_PATTERN]: 'http://localhost:3000' } }
})
