import { ASSETS_PATH, escapeHtml, formatPrice, httpUrl, safeJson } from './html.ts'
import { siteHeader } from './header.ts'
import type { StoreProduct } from './schemas.ts'
import { ORDER_STATUS_WORDS, PAYMENT_STATUS_WORDS } from '../../sdk/src/contract/resources.ts'

/*
 * The customer's shop pages (DESIGN §17): product, cart, checkout and order confirmation. Every link,
 * form and fetch is relative to the store's own path (`root` leads from the page back to the store's
 * root), so the pages keep working wherever the store is served from. The script (shop.js) reads its
 * settings from the inline JSON element and keeps the cart in this origin's localStorage.
 */

export const SHOP_DATA_ELEMENT_ID = 'shop-data'

export interface ShopStore { name: string, slug: string, currency: string, locale: string }

/** What shop.js needs: which page, the store, and the limits it enforces before the server does. */
export interface ShopData {
  /** 'store': the home and content pages (render.ts), where the script only shows the cart's count. */
  page: 'product' | 'cart' | 'checkout' | 'order' | 'store'
  store: { slug: string, currency: string, locale: string }
  /** From the page to the store's root: `../` on two-segment pages, `` on one-segment ones (the store page's own: its absolute path). */
  root: string
  maxLineQuantity: number
  product?: { id: string, slug: string, name: string, price: number, imageUrl: string }
  orderId?: string
}

/** The store's home page from a page `depth` segments below it ("/store/rosa/cart" → depth 1 → "../rosa"). */
const homeHref = (store: ShopStore, depth: number) => `${'../'.repeat(depth)}${encodeURIComponent(store.slug)}`

function layout (options: { store: ShopStore, title: string, data: ShopData, depth: number, main: string }): string {
  const { store, data } = options
  return `<!doctype html>
<html lang="${escapeHtml(store.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · ${escapeHtml(store.name)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/storefront.css">
<link rel="stylesheet" href="${ASSETS_PATH}/shop.css">
<script type="application/json" id="${SHOP_DATA_ELEMENT_ID}">${safeJson(data)}</script>
<script src="${ASSETS_PATH}/shop.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
${siteHeader({ storeName: store.name, homeHref: homeHref(store, options.depth), cartHref: `${data.root}cart`, cartCurrent: data.page === 'cart' })}
<main class="wrap shop" id="main" tabindex="-1">
${options.main}
</main>
<footer class="site-footer"><div class="wrap">${escapeHtml(store.name)}</div></footer>
</body>
</html>
`
}

/** A product image only from http(s) or a site-relative path, as on the store's home page. */
function image (imageUrl: string, name: string): string {
  const src = imageUrl.startsWith('/') && !imageUrl.startsWith('//') ? imageUrl : httpUrl(imageUrl)?.href
  return src === undefined || imageUrl === '' ? '<div class="product-image product-image-empty" aria-hidden="true"></div>' : `<img class="shop-product-image" src="${escapeHtml(src)}" alt="${escapeHtml(name)}">`
}

export function renderProductPage (store: ShopStore, product: StoreProduct, maxLineQuantity: number): string {
  const data: ShopData = {
    page: 'product', store: { slug: store.slug, currency: store.currency, locale: store.locale }, root: '../', maxLineQuantity,
    product: { id: product.id, slug: product.slug, name: product.name, price: product.price, imageUrl: product.imageUrl }
  }
  const main = `<article class="shop-product">
${image(product.imageUrl, product.name)}
<div class="shop-product-body">
<h1>${escapeHtml(product.name)}</h1>
<p class="price">${escapeHtml(formatPrice(product.price, store.currency, store.locale))}</p>
${product.description === '' ? '' : `<p class="shop-description">${escapeHtml(product.description)}</p>`}
<form class="add-to-cart" data-add-to-cart novalidate>
<label for="quantity">Quantity</label>
<input id="quantity" name="quantity" type="number" inputmode="numeric" min="1" max="${maxLineQuantity}" value="1" required aria-describedby="quantity-hint">
<p id="quantity-hint" class="hint">At most ${maxLineQuantity} per order.</p>
<button type="submit" class="button primary">Add to cart</button>
<p class="form-status" role="status" data-add-status></p>
</form>
<p><a href="../cart">Go to cart</a></p>
</div>
</article>`
  return layout({ store, title: product.name, data, depth: 2, main })
}

export function renderCartPage (store: ShopStore, maxLineQuantity: number): string {
  const data: ShopData = { page: 'cart', store: { slug: store.slug, currency: store.currency, locale: store.locale }, root: '', maxLineQuantity }
  const main = `<h1>Your cart</h1>
<div data-cart-view aria-live="polite"><p class="loading">Loading your cart…</p></div>
<p class="form-status error" role="alert" data-cart-error></p>
<div class="cart-actions"><a class="button" href="${escapeHtml(homeHref(store, 1))}">Keep shopping</a> <a class="button primary" href="checkout" data-checkout-link hidden>Check out</a></div>`
  return layout({ store, title: 'Cart', data, depth: 1, main })
}

export function renderCheckoutPage (store: ShopStore, maxLineQuantity: number): string {
  const data: ShopData = { page: 'checkout', store: { slug: store.slug, currency: store.currency, locale: store.locale }, root: '', maxLineQuantity }
  const main = `<h1>Checkout</h1>
<div data-checkout-empty hidden><p class="empty">Your cart is empty.</p><p><a href="${escapeHtml(homeHref(store, 1))}">Back to the shop</a></p></div>
<form class="checkout" data-checkout-form novalidate>
<div class="checkout-fields">
<fieldset>
<legend>Delivery</legend>
<div class="choices">
<label class="choice"><input type="radio" name="deliveryMethod" value="DELIVERY" checked> Delivery to my address</label>
<label class="choice"><input type="radio" name="deliveryMethod" value="PICKUP"> Pick up at the store</label>
</div>
<div data-address-fields>
<label for="address">Address</label>
<textarea id="address" name="address" rows="2" maxlength="500" autocomplete="street-address" required aria-describedby="address-error"></textarea>
<p class="field-error" id="address-error" data-error-for="address"></p>
<label for="locality">Area or city</label>
<input id="locality" name="locality" maxlength="200" autocomplete="address-level2">
</div>
</fieldset>
<fieldset>
<legend>Contact</legend>
<label for="name">Name</label>
<input id="name" name="name" maxlength="200" autocomplete="name" required aria-describedby="name-error">
<p class="field-error" id="name-error" data-error-for="name"></p>
<label for="phone">Phone</label>
<input id="phone" name="phone" type="tel" maxlength="40" autocomplete="tel">
<label for="email">Email</label>
<input id="email" name="email" type="email" maxlength="254" autocomplete="email" aria-describedby="email-error">
<p class="field-error" id="email-error" data-error-for="email"></p>
</fieldset>
<fieldset>
<legend>Payment</legend>
<div class="choices" data-payment-methods><p class="loading">Loading payment methods…</p></div>
</fieldset>
</div>
<section class="summary" aria-labelledby="summary-title">
<h2 id="summary-title">Your order</h2>
<div data-summary aria-live="polite"><p class="loading">Pricing your cart…</p></div>
<p class="form-status error" role="alert" data-quote-error></p>
<div class="promo">
<label for="promoCode">Promo code</label>
<div class="promo-row">
<input id="promoCode" name="promoCode" maxlength="64" autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="promoCode-error promoCode-status">
<button type="button" class="button" data-apply-promo>Apply</button>
</div>
<p class="field-error" id="promoCode-error" data-error-for="promoCode"></p>
<p class="hint" id="promoCode-status" role="status" data-promo-status></p>
</div>
<div class="place-order">
<button type="submit" class="button primary" data-place-order>Place order</button>
<p class="form-status error" role="alert" id="place-order-error" data-place-error></p>
</div>
<p><a href="cart">Edit cart</a></p>
</section>
</form>`
  return layout({ store, title: 'Checkout', data, depth: 1, main })
}

export interface ConfirmationOrder {
  id: string
  orderNumber: string
  status: string
  paymentStatus: string
  amount: number
  items: Array<{ name: string, quantity: number, total: number }>
  deliveryMethod: string
}

export function renderOrderPage (store: ShopStore, order: ConfirmationOrder, maxLineQuantity: number): string {
  const data: ShopData = { page: 'order', store: { slug: store.slug, currency: store.currency, locale: store.locale }, root: '../', maxLineQuantity, orderId: order.id }
  const price = (minor: number) => escapeHtml(formatPrice(minor, store.currency, store.locale))
  const items = order.items.map((item) => `<li><span>${item.quantity} × ${escapeHtml(item.name)}</span><span>${price(item.total)}</span></li>`).join('\n')
  const main = `<h1>Thank you for your order</h1>
<dl class="order-facts">
<div><dt>Order number</dt><dd data-order-number>${escapeHtml(order.orderNumber)}</dd></div>
<div><dt>Status</dt><dd data-order-status="${escapeHtml(order.status)}">${escapeHtml((ORDER_STATUS_WORDS as Record<string, string>)[order.status] ?? order.status)}</dd></div>
<div><dt>Payment</dt><dd data-payment-status="${escapeHtml(order.paymentStatus)}">${escapeHtml((PAYMENT_STATUS_WORDS as Record<string, string>)[order.paymentStatus] ?? order.paymentStatus)}</dd></div>
<div><dt>Total</dt><dd>${price(order.amount)}</dd></div>
<div><dt>Delivery</dt><dd>${order.deliveryMethod === 'DELIVERY' ? 'Delivery' : 'Pickup'}</dd></div>
</dl>
<h2>Items</h2>
<ul class="order-items">
${items}
</ul>
<section class="payment" data-payment hidden aria-labelledby="payment-title"><h2 id="payment-title">Pay for your order</h2><div data-payment-details></div></section>
<p><a href="${escapeHtml(homeHref(store, 2))}">Back to the shop</a></p>`
  return layout({ store, title: `Order ${order.orderNumber}`, data, depth: 2, main })
}

export function renderShopNotFound (store: ShopStore | null, what: string, depth: number): string {
  const home = store === null ? '' : `<p><a href="${escapeHtml(homeHref(store, depth))}">Back to ${escapeHtml(store.name)}</a></p>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(what)} not found</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="${ASSETS_PATH}/storefront.css"></head>
<body><main class="wrap not-found"><h1>${escapeHtml(what)} not found</h1><p>It does not exist or is not for sale.</p>${home}</main></body></html>
`
}
