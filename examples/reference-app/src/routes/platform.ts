import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  DeliveryDeduper, verifyHookRequest, verifyWebhook, WebhookVerificationError,
  type AppSubscriptionEventData, type HeaderBag, type HookRequestDataMap, type WebhookEvent
} from '@app-platform/sdk'
import type { Context } from '../context.ts'
import type { Installation } from '../store.ts'
import { onSubscriptionEvent, recordOrderUsage } from '../billing.ts'
import { loyaltyDiscount, minorUnits, money, PAYMENT_TTL_MS, paymentMethods, shippingRate, validateOrder, WALLET_METHOD_ID } from '../checkout-rules.ts'

/*
 * What the platform calls: webhook deliveries at our webhook URL (`/webhooks`) and the checkout hooks
 * at the webhook URL plus each hook's path (`/webhooks/hooks/...`, app.manifest.json). Every call is
 * signed with the installation's webhook secret over the raw body, so the raw bytes are kept and
 * the installation is found from the (not yet trusted) businessId before the signature is checked.
 */

export const WEBHOOK_PATH = '/webhooks'
/** Hook path (manifest `url`) → hook point. */
export const HOOK_PATHS = {
  '/hooks/shipping-rates': 'checkout.shipping_rates',
  '/hooks/discounts': 'order.calculate_discounts',
  '/hooks/validate': 'order.validate',
  '/hooks/payment-methods': 'checkout.payment_methods',
  '/hooks/create-payment': 'checkout.create_payment'
} as const

type Reject = { statusCode: 400 | 401, error: string, message: string }

function errorReply (reply: FastifyReply, { statusCode, error, message }: Reject) {
  return reply.code(statusCode).send({ statusCode, error, message })
}

/** The installation whose secret should have signed this body; null when the body names none we know. */
function claimedInstallation (context: Context, rawBody: Buffer): Installation | null {
  try {
    const body = JSON.parse(rawBody.toString('utf8')) as { businessId?: unknown }
    return typeof body.businessId === 'string' ? context.store.installation(body.businessId) : null
  } catch {
    return null
  }
}

function rejection (error: unknown): Reject {
  if (error instanceof WebhookVerificationError) {
    return error.reason === 'malformed_body'
      ? { statusCode: 400, error: 'Bad Request', message: error.message }
      : { statusCode: 401, error: 'Unauthorized', message: error.message }
  }
  throw error
}

const UNKNOWN_SENDER: Reject = { statusCode: 401, error: 'Unauthorized', message: 'no installation of this app for that business' }

/** CASH, CARD, or an app's method as the platform names it (`<installationId>:<method id>`): ours in words. */
const paymentLabel = (method: unknown): string => String(method).endsWith(`:${WALLET_METHOD_ID}`) ? 'Demo Wallet' : String(method)

/** One line for the admin page's list of received webhooks. */
function summarise (event: WebhookEvent): string {
  const data = event.data as Record<string, unknown>
  if (event.event === 'order.created') return `Order #${String(data.orderNumber)}: ${money(minorUnits(data.amount))} (${paymentLabel(data.paymentMethod)})`
  if (event.event === 'review.created') return `${String(data.rating)}★ from ${String(data.authorName)}`
  if (event.event === 'app_subscription.updated') return `Subscription ${String(data.name)}: ${String(data.status)}`
  if (typeof data.orderId === 'string') return `Order ${data.orderId}${typeof data.status === 'string' ? ` is ${data.status}` : ''}`
  return typeof data.message === 'string' ? data.message : ''
}

export default async function platformRoutes (fastify: FastifyInstance, { context }: { context: Context }) {
  // Keep the exact bytes: the signature covers the raw body. Scoped to this plugin's routes.
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => { done(null, body) })
  // Concurrent copies of one delivery run the handler once; the store remembers ids across restarts.
  const inFlight = new DeliveryDeduper()

  fastify.post(WEBHOOK_PATH, async (request, reply) => {
    const rawBody = request.body as Buffer
    const installation = claimedInstallation(context, rawBody)
    if (installation === null) return errorReply(reply, UNKNOWN_SENDER)
    let event: WebhookEvent
    try {
      event = verifyWebhook(rawBody, request.headers as HeaderBag, installation.webhookSecret)
    } catch (error) {
      return errorReply(reply, rejection(error))
    }
    const eventId = event.eventId
    if (eventId !== null && context.store.hasEvent(eventId)) return { received: true, duplicate: true }
    const ran = await inFlight.run(eventId, async () => {
      if (event.event === 'business.data_erasure') {
        // The merchant uninstalled 48 hours ago: erase everything we keep about the business (from before
        // that uninstall, when they have installed us again since).
        const { uninstalledAt } = event.data as { uninstalledAt?: unknown }
        context.store.eraseBusiness(event.businessId, typeof uninstalledAt === 'string' ? uninstalledAt : undefined)
        request.log.info({ businessId: event.businessId }, 'business data erased')
        return
      }
      if (event.event === 'app_subscription.updated') onSubscriptionEvent(context, event.businessId, event.data as unknown as AppSubscriptionEventData)
      if (event.event === 'order.created') {
        // our paid plan charges per order processed; keyed by the order id, so a retried delivery records nothing twice
        const { orderId, orderNumber } = event.data as { orderId: string, orderNumber: string }
        const usage = await recordOrderUsage(context, installation, { orderId, orderNumber: String(orderNumber) })
        if ('skipped' in usage && usage.skipped === 'cap_reached') request.log.info({ businessId: event.businessId, orderId }, 'usage cap reached: order not charged')
      }
      context.store.recordEvent(event.businessId, {
        eventId: eventId ?? `local_${randomBytes(8).toString('hex')}`, event: event.event, receivedAt: context.now().toISOString(), summary: summarise(event)
      })
    })
    return { received: true, duplicate: !ran }
  })

  for (const [path, hookPoint] of Object.entries(HOOK_PATHS)) {
    fastify.post(`${WEBHOOK_PATH}${path}`, async (request, reply) => {
      const rawBody = request.body as Buffer
      const installation = claimedInstallation(context, rawBody)
      if (installation === null) return errorReply(reply, UNKNOWN_SENDER)
      let data: unknown
      try {
        const hook = verifyHookRequest(rawBody, request.headers as HeaderBag, installation.webhookSecret)
        if (hook.hookPoint !== hookPoint) return errorReply(reply, { statusCode: 400, error: 'Bad Request', message: `this path answers ${hookPoint}` })
        data = hook.data
      } catch (error) {
        return errorReply(reply, rejection(error))
      }
      switch (hookPoint) {
        case 'checkout.shipping_rates': return shippingRate(data as HookRequestDataMap[typeof hookPoint])
        case 'order.calculate_discounts': return loyaltyDiscount(data as HookRequestDataMap[typeof hookPoint])
        case 'order.validate': return validateOrder(data as HookRequestDataMap[typeof hookPoint])
        case 'checkout.payment_methods': return paymentMethods()
        case 'checkout.create_payment': {
          const input = data as HookRequestDataMap[typeof hookPoint]
          const invoiceId = `inv_${randomBytes(12).toString('hex')}`
          const expiresAt = new Date(context.now().getTime() + PAYMENT_TTL_MS).toISOString()
          context.store.savePayment({
            invoiceId, orderId: input.orderId, businessId: installation.businessId, amount: String(minorUnits(input.amount)), currency: input.currency,
            description: input.description, status: 'PENDING', expiresAt
          })
          const paymentUrl = `${context.urls.appUrl}/pay/${invoiceId}`
          // qrCode carries what a phone scans: the same payment page (the storefront draws it as a QR image)
          return { paymentUrl, qrCode: paymentUrl, invoiceId, expiresAt }
        }
      }
    })
  }
}
