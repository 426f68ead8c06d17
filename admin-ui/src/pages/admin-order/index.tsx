import { useRef, useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { OrderStatusBadge } from '../../components/status-badge/index.tsx'
import { ActivityList } from '../../components/activity-list/index.tsx'
import type { ActivityPage } from '../../lib/activity.ts'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { formatDate } from '../../lib/format.ts'
import { formatMoney } from '../../lib/money.ts'
import { ORDER_STATUS_LABEL, ORDER_TRANSITIONS, type Order, type OrderCheckout, type OrderStatus } from '../../lib/commerce-types.ts'
import styles from './style.module.css'

/** A hook point in words: "order.calculate_discounts" → "Calculate discounts" (the contract keeps the list). */
function hookLabel (hookPoint: string): string {
  const words = (hookPoint.split('.').at(-1) ?? hookPoint).replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** What a hook's answer did, in words. */
function outcome (call: OrderCheckout['hookCalls'][number], currency: string): string {
  if (!call.success) return `Failed: ${call.error ?? 'no answer'}. ${call.policyApplied ?? ''}`.trim()
  const answer = (call.answer ?? {}) as Record<string, unknown>
  switch (call.hookPoint) {
    case 'checkout.payment_methods': {
      const methods = Array.isArray(answer.methods) ? answer.methods as Array<{ name?: unknown }> : []
      return methods.length === 0 ? 'Offered no method' : `Offered ${methods.map((m) => String(m.name)).join(', ')}`
    }
    case 'checkout.shipping_rates': return `Delivery fee set to ${formatMoney(Number(answer.fee), currency)}`
    case 'order.calculate_discounts': return Number(answer.discount) > 0
      ? `${formatMoney(Number(answer.discount), currency)} off${typeof answer.reason === 'string' ? `: ${answer.reason}` : ''}`
      : 'No discount'
    case 'order.validate': return answer.valid === true ? 'Passed' : `Refused${typeof answer.reason === 'string' ? `: ${answer.reason}` : ''}`
    case 'checkout.create_payment': return typeof answer.invoiceId === 'string' ? `Payment session created (invoice ${answer.invoiceId})` : 'Payment session created'
    default: return 'Answered'
  }
}

function CheckoutDetails ({ order }: { order: Order }) {
  const { api } = useSession()
  const checkout = useResource<OrderCheckout>(`order-checkout-${order.id}`, () => api.get(`/merchant/orders/${order.id}/checkout`))
  if (checkout.data === null) return checkout.loading ? <Loading what='Loading the checkout' /> : <ErrorMessage message={checkout.error} />
  const { paymentMethod, discounts, hookCalls } = checkout.data
  // the method's name as its app offered it in this checkout (the order keeps only its id)
  const offered = hookCalls.filter((call) => call.hookPoint === 'checkout.payment_methods' && call.success && call.appId === paymentMethod.appId)
    .flatMap((call) => ((call.answer as { methods?: Array<{ id?: unknown, name?: unknown }> } | null)?.methods ?? []))
    .find((method) => method.id === paymentMethod.methodId)
  const methodName = typeof offered?.name === 'string' ? offered.name : paymentMethod.methodId
  return (
    <>
      <section class='panel' aria-labelledby='payment'>
        <h2 id='payment'>Payment</h2>
        <dl class={styles.facts}>
          <dt>Method</dt>
          <dd data-testid='payment-method'>
            {paymentMethod.provider === 'platform'
              ? (paymentMethod.methodId === 'CASH' ? 'Cash' : paymentMethod.methodId === 'CARD' ? 'Card' : paymentMethod.methodId)
              : <>{methodName} <span class='muted'>from the app</span> <strong>{paymentMethod.appName ?? 'an app no longer listed'}</strong></>}
          </dd>
          <dt>Payment status</dt><dd>{order.paymentStatus.charAt(0) + order.paymentStatus.slice(1).toLowerCase()}</dd>
        </dl>
      </section>
      <section class='panel' aria-labelledby='discounts'>
        <h2 id='discounts'>Discounts</h2>
        {discounts.length === 0 && order.promoCode === null
          ? <p class='muted'>{order.discount > 0 ? `${formatMoney(order.discount, order.currency)} off; the checkout's record of why is no longer kept.` : 'No discount.'}</p>
          : (
            <ul class={styles.plain} data-testid='discounts'>
              {order.promoCode !== null && (
                <li><strong>{formatMoney(order.promoDiscount, order.currency)}</strong> off with your promo code <strong>{order.promoCode}</strong></li>
              )}
              {discounts.map((d, i) => (
                <li key={i}><strong>{formatMoney(d.amount, order.currency)}</strong> off from <strong>{d.appName ?? 'an app'}</strong>{d.reason !== null && <>: “{d.reason}”</>}</li>
              ))}
            </ul>
            )}
      </section>
      <section class='panel' aria-labelledby='hooks'>
        <h2 id='hooks'>What the apps did at checkout</h2>
        {hookCalls.length === 0
          ? <p class='muted'>No app took part in this checkout (or its record is older than the hook log keeps).</p>
          : (
            <ol class={styles.hooks} data-testid='hook-calls'>
              {hookCalls.map((call) => (
                <li key={call.id} class={call.success ? undefined : styles.failed}>
                  <span class={styles.hookHead}><strong>{hookLabel(call.hookPoint)}</strong> <span class='muted'>{call.appName ?? 'an app'} · {call.durationMs} ms</span></span>
                  <span>{outcome(call, order.currency)}</span>
                </li>
              ))}
            </ol>
            )}
      </section>
    </>
  )
}

/** The order's timeline (DESIGN §24): who did what to it (the customer, an app, a staff member, the platform), newest first. */
function Timeline ({ order }: { order: Order }) {
  const { api } = useSession()
  const path = `/merchant/activity?resource=${encodeURIComponent(`order:${order.id}`)}&limit=100`
  // read again after each move of the order (its status or payment)
  const timeline = useResource<ActivityPage>(`${path}#${order.status}:${order.paymentStatus}`, () => api.get(path))
  return (
    <section class={`panel ${styles.timeline}`} aria-labelledby='timeline'>
      <h2 id='timeline'>Timeline</h2>
      <ErrorMessage message={timeline.error} />
      {timeline.data === null
        ? timeline.loading && <Loading what='Loading the timeline' />
        : timeline.data.data.length === 0
          ? <p class='muted'>Nothing recorded for this order yet.</p>
          : (
            <>
              <ActivityList entries={timeline.data.data} label={`Timeline of order #${order.orderNumber}`} />
              {timeline.data.nextCursor !== null && <p><a href='/admin/activity?resource=order'>Older changes in the activity log</a></p>}
            </>
            )}
    </section>
  )
}

function StatusActions ({ order, onMoved }: { order: Order, onMoved: (order: Order) => void }) {
  const { api } = useSession()
  const action = useAction()
  const cancel = useAction()
  const moves = ORDER_TRANSITIONS[order.status]
  const move = async (status: OrderStatus, using = action) => {
    const moved = await using.run(() => api.patch<Order>(`/merchant/orders/${order.id}/status`, { status }))
    if (moved !== null) onMoved(moved)
  }
  if (moves.length === 0) return <p class='muted'>{order.status === 'DELIVERED' ? 'Delivered: this order is complete.' : 'Cancelled: this order is closed.'}</p>
  return (
    <div class={styles.moves}>
      {moves.filter((s) => s !== 'CANCELLED').map((status) => (
        <button key={status} type='button' disabled={action.busy} onClick={() => { void move(status) }}>Mark as {ORDER_STATUS_LABEL[status].toLowerCase()}</button>
      ))}
      {moves.includes('CANCELLED') && (
        <ConfirmStep label='Cancel order' confirmLabel='Cancel the order' title={`Cancel order ${order.orderNumber}`} busy={cancel.busy} error={cancel.error} onConfirm={() => { void move('CANCELLED', cancel) }}>
          Cancel order <strong>#{order.orderNumber}</strong>? Its items go back in stock, an unpaid payment is cancelled, and the apps are told.
          {' '}This cannot be undone.
        </ConfirmStep>
      )}
      <ErrorMessage message={action.error} />
    </div>
  )
}

/** /admin/orders/:id: items, customer, delivery, payment and its app, discounts with reasons, the hooks' outcomes, and the allowed status moves. */
export default function AdminOrder () {
  const { params } = useRoute()
  const { api } = useSession()
  const loaded = useResource<Order>(`order-${params.id}`, () => api.get(`/merchant/orders/${encodeURIComponent(params.id)}`))
  const [moved, setMoved] = useState<Order | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const order = moved ?? loaded.data
  return (
    <AdminShell>
      {() => (
        <section>
          <p><a href='/admin/orders'>← All orders</a></p>
          <ErrorMessage message={loaded.error} />
          {order === null
            ? loaded.loading ? <Loading what='Loading the order' /> : loaded.error === null && <Empty>Order not found.</Empty>
            : (
              <>
                <div class={styles.head}>
                  <h1 ref={heading} tabIndex={-1}>Order #{order.orderNumber}</h1>
                  <OrderStatusBadge status={order.status} />
                </div>
                <p class='muted'>Placed {formatDate(order.createdAt)}{order.isGuest ? ' by a guest' : ''}</p>
                {moved !== null && <Notice>Order moved to {ORDER_STATUS_LABEL[moved.status].toLowerCase()}</Notice>}
                <StatusActions order={order} onMoved={(next) => { setMoved(next); heading.current?.focus() }} />
                <div class={styles.grid}>
                  <section class='panel' aria-labelledby='items'>
                    <h2 id='items'>Items</h2>
                    <div class='table-scroll'>
                      <table>
                        <thead><tr><th scope='col'>Product</th><th scope='col'>Qty</th><th scope='col'>Price</th><th scope='col'>Total</th></tr></thead>
                        <tbody>
                          {order.items.map((item) => (
                            <tr key={item.productId}>
                              <td>{item.name}</td><td>{item.quantity}</td>
                              <td>{formatMoney(item.unitPrice, order.currency)}</td><td>{formatMoney(item.total, order.currency)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                    <dl class={styles.totals}>
                      <dt>Subtotal</dt><dd>{formatMoney(order.subtotal, order.currency)}</dd>
                      <dt>Delivery</dt><dd>{formatMoney(order.deliveryFee, order.currency)}</dd>
                      <dt>Discount</dt><dd>{order.discount > 0 ? `−${formatMoney(order.discount, order.currency)}` : formatMoney(0, order.currency)}</dd>
                      <dt>Total</dt><dd><strong>{formatMoney(order.amount, order.currency)}</strong></dd>
                    </dl>
                  </section>
                  <section class='panel' aria-labelledby='customer'>
                    <h2 id='customer'>Customer and delivery</h2>
                    <dl class={styles.facts}>
                      <dt>Name</dt><dd>{order.customer.name}</dd>
                      <dt>Phone</dt><dd>{order.customer.phone === '' ? '—' : <a href={`tel:${order.customer.phone}`}>{order.customer.phone}</a>}</dd>
                      <dt>Email</dt><dd>{order.customer.email === '' ? '—' : <a href={`mailto:${order.customer.email}`}>{order.customer.email}</a>}</dd>
                      <dt>Delivery</dt><dd>{order.deliveryMethod === 'DELIVERY' ? 'Delivery' : 'Pickup'}</dd>
                      {order.deliveryMethod === 'DELIVERY' && <><dt>Address</dt><dd>{order.address}</dd></>}
                    </dl>
                  </section>
                  <CheckoutDetails order={order} />
                  <Timeline order={order} />
                </div>
              </>
              )}
        </section>
      )}
    </AdminShell>
  )
}
