import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppApiError } from '@app-platform/sdk'
import type { Context } from '../context.ts'
import { escapeHtml, page } from '../html.ts'
import type { Payment } from '../store.ts'

/*
 * The Demo Wallet's payment page: checkout.create_payment answered with its URL; the customer
 * confirms here and the app reports the outcome with POST /app-api/orders/:id/payment (write_payments).
 * The invoice id (random, 96 bits) is the only key, as with a payment provider's hosted page.
 */

export const PAY_PATH = '/pay/:invoiceId'

const amount = (payment: Payment): string => `${(Number(payment.amount) / 100).toFixed(2)} ${payment.currency}`

function payPage (reply: FastifyReply, statusCode: number, title: string, body: string) {
  return reply.code(statusCode).type('text/html; charset=utf-8').send(page({ title, body: `<main><section class="card">${body}</section></main>` }))
}

export default async function payRoutes (fastify: FastifyInstance, { context }: { context: Context }) {
  // the pay button posts an empty form
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
  const open = (invoiceId: string): Payment | null => context.store.payment(invoiceId)

  fastify.get<{ Params: { invoiceId: string } }>(PAY_PATH, async (request, reply) => {
    const payment = open(request.params.invoiceId)
    if (payment === null) return payPage(reply, 404, 'Payment not found', '<h1>Payment not found</h1><p>This payment link is unknown or was erased.</p>')
    if (payment.status === 'COMPLETED') return payPage(reply, 200, 'Paid', `<h1>Paid</h1><p data-paid>${escapeHtml(amount(payment))} received. Thank you!</p>`)
    if (Date.parse(payment.expiresAt) < context.now().getTime()) return payPage(reply, 410, 'Payment expired', '<h1>Payment expired</h1><p>Place the order again.</p>')
    return payPage(reply, 200, 'Demo Wallet', `<h1>Demo Wallet</h1>
<p>${escapeHtml(payment.description)}</p>
<p><b>${escapeHtml(amount(payment))}</b></p>
<form method="post"><button class="button" type="submit">Pay ${escapeHtml(amount(payment))}</button></form>
<p class="muted">A test wallet: no money moves.</p>`)
  })

  fastify.post<{ Params: { invoiceId: string } }>(PAY_PATH, async (request, reply) => {
    const payment = open(request.params.invoiceId)
    if (payment === null) return payPage(reply, 404, 'Payment not found', '<h1>Payment not found</h1>')
    const installation = context.store.installation(payment.businessId)
    if (installation === null) return payPage(reply, 410, 'Store unavailable', '<h1>This store no longer uses the Demo Wallet</h1>')
    if (payment.status === 'PENDING') {
      try {
        await context.api(installation).orders.setPaymentStatus(payment.orderId, 'COMPLETED')
      } catch (error) {
        if (!(error instanceof AppApiError)) throw error
        request.log.warn({ err: error, orderId: payment.orderId }, 'reporting the payment failed')
        return payPage(reply, 502, 'Payment not recorded', `<h1>Payment not recorded</h1><p>The store answered: ${escapeHtml(error.message)}</p>`)
      }
      context.store.savePayment({ ...payment, status: 'COMPLETED' })
    }
    return reply.redirect(`/pay/${encodeURIComponent(payment.invoiceId)}`, 303)
  })
}
