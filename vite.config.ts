import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import preact from '@preact/preset-vite'
import { DEV_PROXY_PATTERN } from './server/api-prefixes.ts'

export default defineConfig({
  root: fileURLToPath(new URL('./admin-ui', import.meta.url)),
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { proxy: { [DEV_PROXY_PATTERN]: 'http://localhost:3000' } }
})
