import { connectBlock, MAX_BLOCK_HEIGHT, type BlockConnection, type BlockSettings } from '@app-platform/sdk/browser'

/*
 * "Reviews highlights" in the storefront: the server rendered the reviews (read with the App API);
 * this script applies the merchant's block settings (SERVICE_BLOCK_INIT, and SERVICE_BLOCK_UPDATE
 * while they edit in the theme editor) and asks for the height the content needs.
 */

const root = document.querySelector<HTMLElement>('[data-block]')
let connection: BlockConnection | null = null

function text (value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback
}

function apply (settings: BlockSettings): void {
  if (root !== null) {
    const title = root.querySelector<HTMLElement>('[data-title]')
    if (title !== null) title.textContent = text(settings.title, title.dataset.default ?? '')
    if (typeof settings.accentColor === 'string' && /^#[0-9a-fA-F]{6}$/.test(settings.accentColor)) {
      document.documentElement.style.setProperty('--accent', settings.accentColor)
    }
    const max = typeof settings.maxReviews === 'number' ? settings.maxReviews : 3
    root.querySelectorAll<HTMLElement>('.reviews li').forEach((item, index) => { item.hidden = index >= max })
  }
  connection?.resize(Math.min(MAX_BLOCK_HEIGHT, document.documentElement.scrollHeight))
}

// The storefront frames us with referrerpolicy strict-origin-when-cross-origin: the referrer is its origin.
if (document.referrer !== '') {
  connection = connectBlock({
    targetOrigin: new URL(document.referrer).origin,
    onInit: ({ settings }) => apply(settings),
    onUpdate: ({ settings }) => apply(settings)
  })
}
