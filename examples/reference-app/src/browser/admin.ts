import { adminBridge, onAdminInit, requestSessionToken } from '@app-platform/sdk/browser'

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
  reviews: { averageRating: number, totalReviews: number }
  events: Array<{ event: string, receivedAt: string, summary: string }>
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
  const scopes = element('p', `Granted scopes: ${overview.installation.scopes.join(', ')}`, 'muted')
  content.append(element('h1', overview.business.name), verified, stats, events, scopes)
}

async function load (sessionToken: string, retried = false): Promise<void> {
  const response = await fetch('/admin/api/overview', { headers: { authorization: `Bearer ${sessionToken}` } })
  if (response.status === 401 && !retried) {
    // Session tokens live five minutes: ask the panel for a fresh one and try once more.
    await load(await requestSessionToken({ expectedOrigin: data.adminOrigin }), true)
    return
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({})) as { message?: string }
    show(`Could not load this store's data: ${body.message ?? response.statusText}`, true)
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
  load(init.sessionToken).catch(() => show('Could not reach the app’s server.', true))
}, { expectedOrigin: data.adminOrigin })
