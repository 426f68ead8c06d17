import { escapeHtml } from './html.ts'

/*
 * The one header of every storefront page: the home page and content pages (render.ts) and the shop
 * pages (shop-render.ts). The store's name leads home; the nav holds the store's published pages (where
 * the page knows them) and the Cart link with its item count, which shop.js fills in from the cart in
 * this origin's localStorage ("0" until then, and without script).
 */

export interface HeaderLink { href: string, title: string, current: boolean }

export interface SiteHeader {
  storeName: string
  homeHref: string
  cartHref: string
  /** The page is the cart itself. */
  cartCurrent: boolean
  /** The store's published pages, in order (the home and content pages list them). */
  pages?: HeaderLink[]
}

const current = (yes: boolean) => yes ? ' aria-current="page"' : ''

export function siteHeader (header: SiteHeader): string {
  const pages = (header.pages ?? []).map((link) => `<a href="${escapeHtml(link.href)}"${current(link.current)}>${escapeHtml(link.title)}</a>`).join('')
  const cart = `<a href="${escapeHtml(header.cartHref)}" class="cart-link"${current(header.cartCurrent)}>Cart <span class="cart-count" data-cart-count>0</span></a>`
  return `<header class="site-header"><div class="wrap"><a class="brand" href="${escapeHtml(header.homeHref)}">${escapeHtml(header.storeName)}</a>\n` +
    `<nav aria-label="Shop">${pages}${cart}</nav></div></header>`
}
