import type { FastifyInstance } from 'fastify'
import type { Context } from '../context.ts'
import { escapeHtml, page } from '../html.ts'
import { FREE_DELIVERY_FROM, LOYALTY_FROM, LOYALTY_PERCENT, money } from '../checkout-rules.ts'

/*
 * What the storefront frames: the "Reviews highlights" block (renderUrl, `?blockId=…&businessId=…`)
 * and the loyalty widget (a FLOATING_WIDGET embed, `?embedType=…&businessId=…&settings=…`). The
 * businessId in these URLs is not signed, so they show only what the store shows anyway: public reviews.
 */

export const BLOCK_PATH = '/blocks/reviews-highlights'
export const WIDGET_PATH = '/embeds/loyalty-widget'
const DEFAULT_TITLE = 'What our customers say'
const HIGHLIGHTS = 5

const stars = (rating: number): string => '★'.repeat(Math.round(rating)) + '☆'.repeat(5 - Math.round(rating))

function settingsFrom (query: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(query ?? '{}')
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}
  } catch {
    return {}
  }
}

export default async function storefrontRoutes (fastify: FastifyInstance, { context }: { context: Context }) {
  fastify.get<{ Querystring: { blockId?: string, businessId?: string } }>(BLOCK_PATH, async (request, reply) => {
    reply.type('text/html; charset=utf-8')
    const installation = context.store.installation(request.query.businessId ?? '')
    if (installation === null) {
      return reply.code(404).send(page({ title: 'Reviews highlights', body: '<div class="block muted">This store has not installed the reference app.</div>' }))
    }
    try {
      const api = context.api(installation)
      const [stats, reviews] = await Promise.all([api.reviews.stats(), api.reviews.list({ limit: 50 })])
      // the best recent words first
      const highlights = reviews.data.filter((review) => review.text.trim() !== '')
        .sort((a, b) => b.rating - a.rating || b.createdAt.localeCompare(a.createdAt)).slice(0, HIGHLIGHTS)
      const list = highlights.map((review, index) => `<li${index >= 3 ? ' hidden' : ''}><span class="stars" aria-label="${review.rating} out of 5">${stars(review.rating)}</span>
<q>${escapeHtml(review.text)}</q><span class="muted">— ${escapeHtml(review.authorName)}</span></li>`).join('\n')
      const summary = stats.totalReviews === 0
        ? '<p class="muted">No reviews yet: be the first!</p>'
        : `<p><span class="stars">${stars(stats.averageRating)}</span> <b data-average>${stats.averageRating.toFixed(1)}</b> <span class="muted">from ${stats.totalReviews} reviews</span></p>`
      return page({
        title: 'Reviews highlights',
        scripts: ['block'],
        body: `<div class="block" data-block>
<h2><span data-title data-default="${escapeHtml(DEFAULT_TITLE)}">${escapeHtml(DEFAULT_TITLE)}</span></h2>
${summary}
<ul class="reviews">${list}</ul>
</div>`
      })
    } catch (error) {
      request.log.warn({ err: error, businessId: installation.businessId }, 'reviews block: App API call failed')
      return reply.code(502).send(page({ title: 'Reviews highlights', body: '<div class="block muted">Reviews are unavailable right now.</div>' }))
    }
  })

  fastify.get<{ Querystring: { businessId?: string, settings?: string } }>(WIDGET_PATH, async (request, reply) => {
    reply.type('text/html; charset=utf-8')
    const settings = settingsFrom(request.query.settings)
    const headline = typeof settings.headline === 'string' && settings.headline.trim() !== '' ? settings.headline : 'Loyalty rewards'
    const accent = typeof settings.accentColor === 'string' && /^#[0-9a-fA-F]{6}$/.test(settings.accentColor) ? settings.accentColor : null
    return page({
      title: headline,
      bodyClass: 'widget-page',
      body: `<aside class="widget"${accent === null ? '' : ` style="--accent: ${accent}"`} aria-label="${escapeHtml(headline)}">
<span class="badge">Reference app</span>
<h2>${escapeHtml(headline)}</h2>
<ul>
<li>${LOYALTY_PERCENT}% off orders of ${money(LOYALTY_FROM)} or more</li>
<li>Free delivery from ${money(FREE_DELIVERY_FROM)}</li>
<li>Pay with the Demo Wallet at checkout</li>
</ul>
</aside>`
    })
  })
}
