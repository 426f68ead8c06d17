import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import preact from '@preact/preset-vite'

export default defineConfig({
  root: fileURLToPath(new URL('./admin-ui', import.meta.url)),
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '^/(auth|developer|review|marketplace|merchant|app-api|webhooks|oauth/token|oauth/authorize/info|media)': 'http://localhost:3000' } }
})
