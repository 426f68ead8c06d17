/**
 * Stands in for codemirror-json-schema's utils/markdown (vite.config.ts swaps it in): that module starts a
 * shiki highlighter on import, which compiles WebAssembly, and the admin's CSP (script-src 'self') refuses
 * that with a console error on every page that loads the editor. Descriptions in the manifest schema are
 * plain sentences: escaped text, with `code` spans kept, is all they need.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c])

export function renderMarkdown (markdown: string, inline = true): string {
  const html = escapeHtml(markdown).replace(/`([^`]+)`/g, '<code>$1</code>')
  return inline ? html : `<p>${html}</p>`
}
