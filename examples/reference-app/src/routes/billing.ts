import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppApiError, type Subscription } from '@app-platform/sdk'
import type { Context } from '../context.ts'
import { escapeHtml, page } from '../html.ts'
import { verifiedSession } from '../session.ts'
import { currentSubscription, paidPlan, RETURN_PATH, returnedSubscription, startUpgrade } from '../billing.ts'
import { money } from '../checkout-rules.ts'

/*
 * Upgrading to the paid plan (DESIGN §23). The admin page's "Upgrade" posts here with its session
 * token; we ask the App API for a subscription and hand back its confirmationUrl, which the page opens
 * at the top level (the platform's admin, where the merchant approves). The platform then sends the
 * merchant's browser to RETURN_PATH with charge_id and status; we show what the App API says.
 */

export const UPGRADE_PATH = '/admin/api/upgrade'

function resultPage (reply: FastifyReply, statusCode: number, title: string, body: string) {
  return reply.code(statusCode).type('text/html; charset=utf-8').send(page({ title, body: `<main><section class="card" role="status">${body}</section></main>` }))
}

/** What the merchant is on, in words: "Pro: 9.99 USD every 30 days, free trial until 12 Dec". */
export function describe (subscription: Subscription): string {
  const price = `${money(subscription.price.amount)} ${subscription.price.currency} ${subscription.interval === 'ANNUAL' ? 'a year' : 'every 30 days'}`
  const trial = subscription.trialEndsAt === null ? '' : `, free trial until ${new Date(subscription.trialEndsAt).toDateString()}`
  return `${subscription.name}: ${price}${trial}`
}

export default async function billingRoutes (fastify: FastifyInstance, { context }: { context: Context }) {
  fastify.post(UPGRADE_PATH, async (request, reply) => {
    const session = verifiedSession(context, request, reply)
    if (session === null) return reply
    try {
      const current = await currentSubscription(context, session.installation)
      if (current?.status === 'ACTIVE' && current.planId === paidPlan().id) {
        return reply.code(409).send({ statusCode: 409, error: 'Conflict', message: `This store is already on ${current.name}` })
      }
      // one charge waiting for the merchant is enough: send them to it again
      const subscription = current?.status === 'PENDING' ? current : await startUpgrade(context, session.installation)
      return { subscription, confirmationUrl: subscription.confirmationUrl }
    } catch (error) {
      if (!(error instanceof AppApiError)) throw error
      request.log.warn({ err: error, businessId: session.installation.businessId }, 'upgrade: App API call failed')
      const reason = error.code === 'plan_unknown' ? `the ${paidPlan().name} plan is not approved on the platform yet` : error.message
      return reply.code(502).send({ statusCode: 502, error: 'Bad Gateway', code: error.code, message: `The platform refused the upgrade: ${reason}` })
    }
  })

  fastify.get<{ Querystring: { businessId?: string, charge_id?: string, status?: string } }>(RETURN_PATH, async (request, reply) => {
    const { businessId, charge_id: chargeId } = request.query
    const installation = context.store.installation(businessId ?? '')
    if (installation === null || chargeId === undefined || chargeId === '') {
      return resultPage(reply, 404, 'Unknown charge', '<h1>Unknown charge</h1><p>Open this app from your admin to see your plan.</p>')
    }
    // the query's status is the platform's hint; the App API, with this store's token, is the truth
    const subscription = await returnedSubscription(context, installation, chargeId)
    if (subscription === null) return resultPage(reply, 404, 'Unknown charge', '<h1>Unknown charge</h1><p>This store has no such charge.</p>')
    const back = `${context.urls.adminUrl}/admin/apps/${encodeURIComponent(installation.installationId)}/pages/overview`
    const link = `<p><a class="button" href="${escapeHtml(back)}">Back to the app in your admin</a></p>`
    const status = `data-plan-status="${escapeHtml(subscription.status)}"`
    if (subscription.status === 'ACTIVE') {
      const usage = subscription.usage === null ? '' : `<p class="muted">Usage: ${escapeHtml(subscription.usage.terms)}, at most ${escapeHtml(money(subscription.usage.cappedAmount.amount))} ${escapeHtml(subscription.usage.cappedAmount.currency)} every 30 days.</p>`
      return resultPage(reply, 200, `You are on ${subscription.name}`, `<h1 ${status}>You are on ${escapeHtml(subscription.name)}</h1><p>${escapeHtml(describe(subscription))}.</p>${usage}${link}`)
    }
    if (subscription.status === 'PENDING') {
      return resultPage(reply, 200, 'Waiting for approval', `<h1 ${status}>Waiting for your approval</h1><p><a href="${escapeHtml(subscription.confirmationUrl)}">Approve ${escapeHtml(subscription.name)}</a> in your admin.</p>${link}`)
    }
    return resultPage(reply, 200, 'Not upgraded', `<h1 ${status}>Still on the free plan</h1><p>${escapeHtml(subscription.name)} was ${escapeHtml(subscription.status.toLowerCase())}: nothing is charged.</p>${link}`)
  })
}
