import { adminBridge, onAdminInit, requestSessionToken } from '@app-platform/sdk/browser'
import type { PricingPlan, Subscription } from '@app-platform/sdk'
import type { FeedOrder } from '../store.ts'

/*
 * The admin page inside the platform's admin panel. The panel posts service:init with a signed
 * session token; we send it to our own backend, which verifies it (SDK verifySessionToken) before it
 * calls the App API for that business. A businessId in the URL proves nothing; the token does.
 */

interface Overview {
  business: { id: string, name: string, currency: string }
  installation: { installationId: string, scopes: string[], installedAt: string }
  verifiedAs: { userId: string, expiresAt: string }
  orders: { total: number, revenue: number }
  /** The latest orders, kept by our backend and brought up to date with only what changed (`read` orders this time). */
  recentOrders: { orders: FeedOrder[], lastUpdatedAt: string | null, read: number }
  reviews: { averageRating: number, totalReviews: number }
  events: Array<{ event: string, receivedAt: string, summary: string }>
  /** The store's plan (null subscription: free) and the paid plan we offer. */
  billing: { subscription: Subscription | null, offer: PricingPlan }
}

const data = JSON.parse(document.getElementById('app-data')?.textContent ?? '{}') as { adminOrigin: string }
const status = document.getElementById('status') as HTMLElement
const content = document.getElementById('content') as HTMLElement

function show (message: string, isError = false): void {
  status.textContent = message
  status.className = isError ? 'card error' : 'card muted'
  status.hidden = false
}

function element (tag: string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className !== undefined) node.className = className
  return node
}

const money = (minor: number, currency: string): string => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(minor / 100)

let sessionToken = ''

/** A call to our backend with the panel's session token, asking the panel for a fresh one once on a 401 (tokens live five minutes). */
async function backend (path: string, init: RequestInit = {}): Promise<Response> {
  const call = async () => await fetch(path, { ...init, headers: { authorization: `Bearer ${sessionToken}` } })
  const response = await call()
  if (response.status !== 401) return response
  sessionToken = await requestSessionToken({ expectedOrigin: data.adminOrigin })
  return await call()
}

async function message (response: Response): Promise<string> {
  const body = await response.json().catch(() => ({})) as { message?: string }
  return body.message ?? response.statusText
}

/**
 * Upgrade: our backend asks the App API for the subscription; the merchant approves it in the platform's
 * admin. A sandboxed frame cannot move the admin's tab, and the platform's page must never be framed, so
 * we ask the admin panel to open its own approval screen for this charge (service:confirm-charge); the
 * platform then sends the merchant's browser on to our /billing/return.
 */
async function upgrade (button: HTMLButtonElement, out: HTMLElement): Promise<void> {
  button.disabled = true
  out.replaceChildren(element('span', 'Asking the platform…', 'muted'))
  const response = await backend('/admin/api/upgrade', { method: 'POST' })
  button.disabled = false
  if (!response.ok) {
    out.replaceChildren(element('span', await message(response), 'error'))
    return
  }
  const { subscription } = await response.json() as { subscription: Subscription }
  out.replaceChildren(element('p', 'Opening the approval in your admin…', 'muted'))
  bridge.confirmCharge(subscription.id)
}

function planCard (overview: Overview): HTMLElement {
  const { subscription, offer } = overview.billing
  const card = element('section', undefined, 'card')
  card.setAttribute('data-plan', subscription?.status === 'ACTIVE' ? subscription.planId : 'free')
  card.append(element('h2', 'Your plan'))
  if (subscription?.status === 'ACTIVE') {
    const trial = subscription.trialEndsAt !== null && Date.parse(subscription.trialEndsAt) > Date.now() ? `, free trial until ${new Date(subscription.trialEndsAt).toLocaleDateString()}` : ''
    card.append(element('p', `${subscription.name}: ${money(subscription.price.amount, subscription.price.currency)} every 30 days${trial}${subscription.test ? ' (test charge)' : ''}.`))
    if (subscription.usage !== null) {
      const { balanceUsed, cappedAmount, terms } = subscription.usage
      card.append(element('p', `Usage this period: ${money(balanceUsed.amount, balanceUsed.currency)} of ${money(cappedAmount.amount, cappedAmount.currency)} (${terms}).`, 'muted'))
    }
    return card
  }
  card.append(element('p', `Free. ${offer.name}: ${money(offer.price.amount, offer.price.currency)} every 30 days${offer.trialDays !== undefined && offer.trialDays > 0 ? ` after a ${offer.trialDays}-day free trial` : ''}${offer.usage === undefined ? '' : `, plus ${offer.usage.terms} (at most ${money(offer.usage.cappedAmount.amount, offer.usage.cappedAmount.currency)})`}.`))
  if (subscription?.status === 'PENDING') card.append(element('p', `${subscription.name} is waiting for your approval.`, 'muted'))
  const button = element('button', `Upgrade to ${offer.name}`, 'button') as HTMLButtonElement
  button.type = 'button'
  const out = element('div')
  out.setAttribute('aria-live', 'polite')
  button.addEventListener('click', () => { upgrade(button, out).catch(() => out.replaceChildren(element('span', 'Could not reach the app’s server.', 'error'))) })
  card.append(button, out)
  return card
}

function render (overview: Overview): void {
  status.hidden = true
  content.replaceChildren()
  const verified = element('p', `Verified: business ${overview.business.name} (${overview.business.id}), user ${overview.verifiedAs.userId}.`, 'muted')
  verified.setAttribute('data-verified-business', overview.business.id)
  const stats = element('div', undefined, 'grid')
  for (const [label, value] of [
    ['Orders', String(overview.orders.total)],
    ['Revenue (30 days)', money(overview.orders.revenue, overview.business.currency)],
    ['Average rating', overview.reviews.totalReviews === 0 ? '–' : `${overview.reviews.averageRating.toFixed(1)} ★`],
    ['Reviews', String(overview.reviews.totalReviews)]
  ]) {
    const stat = element('div', undefined, 'stat')
    stat.append(element('b', value), element('span', label, 'muted'))
    stats.append(stat)
  }
  const events = element('section', undefined, 'card')
  events.append(element('h2', 'Latest webhooks received'))
  if (overview.events.length === 0) {
    events.append(element('p', 'None yet. Place an order on the storefront: order.created arrives here, signed and verified.', 'muted'))
  } else {
    const table = element('table')
    const head = element('tr')
    head.append(element('th', 'Event'), element('th', 'Received'), element('th', 'What'))
    table.append(head)
    for (const event of overview.events.slice(0, 10)) {
      const row = element('tr')
      row.append(element('td', event.event), element('td', new Date(event.receivedAt).toLocaleString()), element('td', event.summary))
      table.append(row)
    }
    events.append(table)
  }
  const orders = element('section', undefined, 'card')
  orders.append(element('h2', 'Recent orders'))
  if (overview.recentOrders.orders.length === 0) {
    orders.append(element('p', 'No orders in the last 30 days.', 'muted'))
  } else {
    const table = element('table', undefined, 'orders')
    const head = element('tr')
    head.append(element('th', 'Order'), element('th', 'Status'), element('th', 'Amount'), element('th', 'Updated'))
    table.append(head)
    for (const order of overview.recentOrders.orders) {
      const row = element('tr')
      row.setAttribute('data-order', order.id)
      row.append(element('td', `#${order.orderNumber}`), element('td', order.status), element('td', money(order.amount, order.currency)), element('td', new Date(order.updatedAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })))
      table.append(row)
    }
    const scroll = element('div', undefined, 'scroll')
    scroll.append(table)
    orders.append(scroll, element('p', `${overview.recentOrders.read} order${overview.recentOrders.read === 1 ? '' : 's'} read from the platform this time: only what changed since the last visit.`, 'muted'))
  }
  const scopes = element('p', `Granted scopes: ${overview.installation.scopes.join(', ')}`, 'muted')
  content.append(element('h1', overview.business.name), verified, stats, planCard(overview), orders, events, scopes)
}

async function load (): Promise<void> {
  const response = await backend('/admin/api/overview')
  if (!response.ok) {
    show(`Could not load this store's data: ${await message(response)}`, true)
    return
  }
  render(await response.json() as Overview)
}

// Tell the panel we are here (it shows an error after 5 s without service:ready), then fit the frame to what we show.
const bridge = adminBridge({ expectedOrigin: data.adminOrigin })
bridge.ready()
new ResizeObserver(() => { bridge.resize(document.body.offsetHeight) }).observe(document.body)

show('Loading…')
const waiting = setTimeout(() => show('Open this page from the platform’s admin panel: it needs the panel’s signed session token.', true), 5000)
onAdminInit((init) => {
  clearTimeout(waiting)
  sessionToken = init.sessionToken
  load().catch(() => show('Could not reach the app’s server.', true))
}, { expectedOrigin: data.adminOrigin })
// back in this tab after a while (the approval can take the merchant elsewhere): show the plan as it is now
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && sessionToken !== '') load().catch(() => {})
})
