import { ASSETS_PATH, dataAttributes, escapeHtml, formatPrice, httpUrl, safeJson } from './html.ts'
import type { BlockView, ScriptView, StorefrontView, WidgetView } from './view.ts'
import { siteHeader } from './header.ts'
import { SHOP_DATA_ELEMENT_ID, type ShopData } from './shop-render.ts'

export { ASSETS_PATH }
/** Third-party content: scripts and forms and popups, own origin (for its cookies), never top navigation. */
export const IFRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups'
/** id of the inline JSON the host script reads (settings per block id, preview origin). */
export const DATA_ELEMENT_ID = 'storefront-data'

const storeHref = (businessSlug: string, pageSlug?: string) =>
  `/store/${encodeURIComponent(businessSlug)}${pageSlug === undefined ? '' : `/${encodeURIComponent(pageSlug)}`}`

function layout (options: { lang: string, title: string, head: string, body: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/storefront.css">
${options.head}</head>
<body>
${options.body}
</body>
</html>
`
}

function blockFrame (block: BlockView): string {
  return `<iframe class="block" src="${escapeHtml(block.src)}" title="${escapeHtml(block.name)}" sandbox="${IFRAME_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin"${dataAttributes({ blockId: block.id, blockOrigin: block.origin })}></iframe>`
}

/** Settings reach a GLOBAL_SCRIPT as data attributes: `document.currentScript.dataset.settings` (JSON). */
function embedScript (script: ScriptView, businessId: string): string {
  return `<script src="${escapeHtml(script.src)}"${dataAttributes({ embedType: script.embedType, businessId, settings: JSON.stringify(script.settings) })}></script>`
}

/**
 * Settings reach a FLOATING_WIDGET in its URL's `settings` query parameter (JSON). The platform's dock
 * around it carries the minimise control (host.js: the state is kept per store in the customer's browser).
 */
function widgetFrame (widget: WidgetView): string {
  const position = widget.position === 'bottom_left' ? 'bottom-left' : 'bottom-right'
  const id = `widget-${widget.embedType}`
  const name = escapeHtml(widget.name)
  return `<aside class="widget-dock widget-dock-${position}" aria-label="${name}"${dataAttributes({ widget: widget.embedType })}>` +
    `<button type="button" class="widget-toggle" aria-expanded="true" aria-controls="${escapeHtml(id)}" aria-label="Minimise ${name}" data-widget-toggle>` +
    `<span class="widget-toggle-name">${name}</span><span class="widget-toggle-icon" aria-hidden="true"></span></button>` +
    `<iframe class="widget widget-${position}" src="${escapeHtml(widget.src)}" title="${name}" sandbox="${IFRAME_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin"${dataAttributes({ embedType: widget.embedType })} id="${escapeHtml(id)}"></iframe>` +
    '</aside>'
}

/** A product image only from http(s) or a site-relative path: never javascript: or data: URLs. */
function productImage (imageUrl: string, name: string): string {
  const src = imageUrl.startsWith('/') && !imageUrl.startsWith('//') ? imageUrl : httpUrl(imageUrl)?.href
  return src === undefined || imageUrl === '' ? '<div class="product-image product-image-empty" aria-hidden="true"></div>' : `<img class="product-image" src="${escapeHtml(src)}" alt="${escapeHtml(name)}">`
}

function productList (view: StorefrontView): string {
  if (view.products.length === 0) return '<p class="empty">No products yet.</p>'
  const items = view.products.map((product) => `<li class="product"${dataAttributes({ productId: product.id })}>
${productImage(product.imageUrl, product.name)}
<div class="product-body"><h3><a href="${escapeHtml(`${storeHref(view.business.slug)}/products/${encodeURIComponent(product.slug)}`)}">${escapeHtml(product.name)}</a></h3>
${product.description === '' ? '' : `<p class="product-description">${escapeHtml(product.description)}</p>\n`}<p class="price">${escapeHtml(formatPrice(product.price, product.currency, view.business.locale))}</p></div>
</li>`).join('\n')
  const more = view.productTotal > view.products.length ? `\n<p class="more">Showing ${view.products.length} of ${view.productTotal} products.</p>` : ''
  return `<ul class="products">\n${items}\n</ul>${more}`
}

export function renderStorefront (view: StorefrontView): string {
  const { business } = view
  const data = { businessId: business.id, previewOrigin: view.previewOrigin, blocks: Object.fromEntries(view.blocks.map((b) => [b.id, b.settings])) }
  // shop.js fills in the header's cart count here as on the shop pages (it has nothing else to do on this page)
  const shop: ShopData = {
    page: 'store', store: { slug: business.slug, currency: business.currency, locale: business.locale }, root: `${storeHref(business.slug)}/`, maxLineQuantity: 0
  }
  const head = [
    `<script type="application/json" id="${DATA_ELEMENT_ID}">${safeJson(data)}</script>`,
    // Not deferred: the host listens before any block iframe can post SERVICE_BLOCK_READY.
    `<script src="${ASSETS_PATH}/host.js"></script>`,
    `<script type="application/json" id="${SHOP_DATA_ELEMENT_ID}">${safeJson(shop)}</script>`,
    `<script src="${ASSETS_PATH}/shop.js" defer></script>`,
    ...view.scripts.filter((s) => s.position === 'head').map((s) => embedScript(s, business.id))
  ].map((line) => `${line}\n`).join('')

  const pages = view.nav.map((item) => ({ href: storeHref(business.slug, item.slug), title: item.title, current: item.current }))
  const body = [
    siteHeader({ storeName: business.name, homeHref: storeHref(business.slug), cartHref: storeHref(business.slug, 'cart'), cartCurrent: false, pages }),
    '<main class="wrap">',
    `<h1>${escapeHtml(view.page?.title ?? business.name)}</h1>`,
    view.blocks.length === 0 ? '' : `<section class="blocks" aria-label="Page content">\n${view.blocks.map(blockFrame).join('\n')}\n</section>`,
    `<section class="catalog" aria-labelledby="products-title"><h2 id="products-title">Products</h2>\n${productList(view)}\n</section>`,
    '</main>',
    `<footer class="site-footer"><div class="wrap">${escapeHtml(business.name)}</div></footer>`,
    ...view.widgets.map(widgetFrame),
    ...view.scripts.filter((s) => s.position === 'body_end').map((s) => embedScript(s, business.id))
  ].filter((line) => line !== '').join('\n')

  return layout({ lang: business.locale, title: view.page === null ? business.name : `${view.page.title} · ${business.name}`, head, body })
}

export function renderNotFound (business: { name: string, slug: string } | null): string {
  const home = business === null ? '' : `<p><a href="${escapeHtml(storeHref(business.slug))}">Back to ${escapeHtml(business.name)}</a></p>`
  return layout({
    lang: 'en',
    title: 'Page not found',
    head: '',
    body: `<main class="wrap not-found"><h1>Page not found</h1>\n<p>This page does not exist or is not published.</p>\n${home}</main>`
  })
}
