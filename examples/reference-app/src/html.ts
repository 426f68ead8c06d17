/** Small HTML helpers: every value that reaches a page goes through escapeHtml or safeJson. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml (value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c])
}

/** JSON for a `<script type="application/json">`: `<` is escaped so the data cannot close the tag. */
export function safeJson (value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

export interface PageOptions {
  title: string
  body: string
  /** Bundled scripts of src/browser to load, e.g. 'block'. */
  scripts?: string[]
  /** Data for the page's script, read from #app-data. */
  data?: unknown
  /** Extra class on <body> (layout variant). */
  bodyClass?: string
}

export function page (options: PageOptions): string {
  const data = options.data === undefined ? '' : `<script type="application/json" id="app-data">${safeJson(options.data)}</script>\n`
  const scripts = (options.scripts ?? []).map((name) => `<script src="/assets/${name}.js"></script>\n`).join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
</head>
<body${options.bodyClass === undefined ? '' : ` class="${escapeHtml(options.bodyClass)}"`}>
${options.body}
${data}${scripts}</body>
</html>
`
}
