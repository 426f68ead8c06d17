/*
 * The shop pages' script (browser): the cart in this origin's localStorage, the product page's "Add to
 * cart", the cart page, the checkout with its live quote, and the payment on the confirmation page.
 * Every fetch and link is relative to the store's root (`data.root`). Text from the server or an app is
 * only ever set with textContent; URLs from apps are used only when they are http(s).
 */

interface ShopData {
  page: 'product' | 'cart' | 'checkout' | 'order' | 'store'
  store: { slug: string, currency: string, locale: string }
  root: string
  maxLineQuantity: number
  product?: { id: string, slug: string, name: string, price: number, imageUrl: string }
  orderId?: string
}

interface CartLine { productId: string, slug: string, name: string, price: number, quantity: number }

interface PaymentMethod { id: string, name: string, description?: string, icon?: string, provider: 'platform' | 'app' }
interface Quote {
  subtotal: number
  deliveryFee: number
  deliveryFeeSetBy: { provider: 'platform' | 'app', appName?: string }
  promoCode: string | null
  promoDiscount: number
  appDiscount: number
  discountReasons: string[]
  total: number
  currency: string
  paymentMethods: PaymentMethod[]
}
interface Payment { paymentUrl?: string, qrImage?: string, invoiceId?: string, expiresAt?: string }
interface SavedOrder { orderNumber: string, payment: Payment | null, paymentExpiresAt: string | null }
interface ApiAnswer { status: number, body: Record<string, unknown> }

const QR_IMAGE_PREFIX = 'data:image/svg+xml;base64,'

function readData (): ShopData | null {
  const element = document.getElementById('shop-data')
  if (element === null) return null
  try {
    return JSON.parse(element.textContent ?? '') as ShopData
  } catch {
    return null
  }
}

/** An http(s) URL, or null (javascript:, data: and anything unparsable are never used). */
function httpHref (raw: unknown): string | null {
  if (typeof raw !== 'string') return null
  try {
    const url = new URL(raw)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

interface ElementOptions { text?: string, className?: string, attrs?: Record<string, string> }

function element<K extends keyof HTMLElementTagNameMap> (tag: K, options: ElementOptions = {}, children: Node[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  if (options.text !== undefined) node.textContent = options.text
  if (options.className !== undefined) node.className = options.className
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value)
  for (const child of children) node.append(child)
  return node
}

const $ = <T extends Element = HTMLElement>(selector: string): T | null => document.querySelector<T>(selector)

function start (data: ShopData): void {
  const cartKey = `shop-cart:${data.store.slug}`
  const orderKey = (id: string) => `shop-order:${data.store.slug}:${id}`
  let format: Intl.NumberFormat
  try {
    format = new Intl.NumberFormat(data.store.locale, { style: 'currency', currency: data.store.currency })
  } catch {
    format = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' })
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  const money = (minor: number) => format.format(minor / 10 ** digits)

  function readCart (): CartLine[] {
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(cartKey) ?? '[]')
      if (!Array.isArray(parsed)) return []
      return parsed.filter((line): line is CartLine => typeof line === 'object' && line !== null &&
        typeof line.productId === 'string' && typeof line.name === 'string' && typeof line.slug === 'string' &&
        Number.isSafeInteger(line.price) && Number.isSafeInteger(line.quantity) && line.quantity >= 1)
    } catch {
      return []
    }
  }

  function writeCart (lines: CartLine[]): void {
    if (lines.length === 0) localStorage.removeItem(cartKey)
    else localStorage.setItem(cartKey, JSON.stringify(lines))
    showCount()
  }

  function showCount (): void {
    const count = readCart().reduce((sum, line) => sum + line.quantity, 0)
    const badge = $('[data-cart-count]')
    if (badge !== null) {
      badge.textContent = String(count)
      badge.setAttribute('aria-label', `${count} ${count === 1 ? 'item' : 'items'}`)
    }
  }

  async function post (path: string, body: unknown): Promise<ApiAnswer> {
    const response = await fetch(`${data.root}api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    let parsed: Record<string, unknown> = {}
    try {
      parsed = await response.json() as Record<string, unknown>
    } catch {}
    return { status: response.status, body: parsed }
  }

  /** What a refusal tells the customer: the server's message (order.validate's reason), or a plain fallback. */
  function refusal (answer: ApiAnswer): string {
    if (answer.status === 429) return 'Too many tries from your connection. Please wait a minute and try again.'
    const message = typeof answer.body.message === 'string' ? answer.body.message : ''
    return message !== '' && answer.status < 500 ? message : 'Something went wrong on our side. Please try again.'
  }

  // ---- product page

  function productPage (): void {
    const product = data.product
    const form = $<HTMLFormElement>('[data-add-to-cart]')
    const status = $('[data-add-status]')
    const input = $<HTMLInputElement>('#quantity')
    if (product === undefined || form === null || status === null || input === null) return
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const quantity = Number(input.value)
      const lines = readCart()
      const line = lines.find((l) => l.productId === product.id)
      const total = quantity + (line?.quantity ?? 0)
      status.classList.remove('error')
      if (!Number.isSafeInteger(quantity) || quantity < 1) {
        status.classList.add('error')
        status.textContent = 'Enter a quantity of 1 or more.'
        input.focus()
        return
      }
      if (total > data.maxLineQuantity) {
        status.classList.add('error')
        status.textContent = `At most ${data.maxLineQuantity} per order; your cart already has ${line?.quantity ?? 0}.`
        input.focus()
        return
      }
      if (line === undefined) lines.push({ productId: product.id, slug: product.slug, name: product.name, price: product.price, quantity })
      else Object.assign(line, { quantity: total, price: product.price, name: product.name })
      writeCart(lines)
      status.textContent = `Added ${quantity} × ${product.name} to your cart.`
    })
  }

  // ---- cart page

  function cartPage (): void {
    const view = $('[data-cart-view]')
    const checkout = $<HTMLAnchorElement>('[data-checkout-link]')
    const error = $('[data-cart-error]')
    if (view === null || checkout === null || error === null) return

    function render (focusId?: string): void {
      const lines = readCart()
      view!.replaceChildren()
      checkout!.hidden = lines.length === 0
      if (lines.length === 0) {
        view!.append(element('p', { className: 'empty', text: 'Your cart is empty.' }))
        return
      }
      const list = element('ul', { className: 'cart-lines' })
      for (const line of lines) {
        const inputId = `qty-${line.productId}`
        const input = element('input', { attrs: { id: inputId, type: 'number', inputmode: 'numeric', min: '1', max: String(data.maxLineQuantity), value: String(line.quantity) } })
        input.addEventListener('change', () => {
          const quantity = Number(input.value)
          if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > data.maxLineQuantity) {
            error!.textContent = `Enter a quantity from 1 to ${data.maxLineQuantity} for ${line.name}.`
            input.value = String(line.quantity)
            return
          }
          error!.textContent = ''
          writeCart(readCart().map((l) => l.productId === line.productId ? { ...l, quantity } : l))
          render(inputId)
        })
        const remove = element('button', { className: 'button link', text: 'Remove', attrs: { type: 'button', 'aria-label': `Remove ${line.name}` } })
        remove.addEventListener('click', () => {
          writeCart(readCart().filter((l) => l.productId !== line.productId))
          render()
          $<HTMLElement>('main')?.focus()
        })
        list.append(element('li', { className: 'cart-line' }, [
          element('a', { text: line.name, className: 'cart-line-name', attrs: { href: `products/${encodeURIComponent(line.slug)}` } }),
          element('span', { className: 'cart-line-price', text: `${money(line.price)} each` }),
          element('span', { className: 'cart-line-qty' }, [element('label', { text: 'Quantity', attrs: { for: inputId } }), input]),
          element('span', { className: 'cart-line-total', text: money(line.price * line.quantity) }),
          remove
        ]))
      }
      const subtotal = lines.reduce((sum, line) => sum + line.price * line.quantity, 0)
      view!.append(list, element('p', { className: 'cart-subtotal' }, [
        element('span', { text: 'Subtotal ' }), element('strong', { text: money(subtotal) })
      ]), element('p', { className: 'hint', text: 'Delivery, discounts and the final prices are shown at checkout.' }))
      if (focusId !== undefined) document.getElementById(focusId)?.focus()
    }
    render()
  }

  // ---- checkout page

  function checkoutPage (): void {
    const form = $<HTMLFormElement>('[data-checkout-form]')
    const empty = $('[data-checkout-empty]')
    const summary = $('[data-summary]')
    const methods = $('[data-payment-methods]')
    const quoteError = $('[data-quote-error]')
    const placeError = $('[data-place-error]')
    const placeButton = $<HTMLButtonElement>('[data-place-order]')
    const addressFields = $('[data-address-fields]')
    if (form === null || empty === null || summary === null || methods === null) return
    if (quoteError === null || placeError === null || placeButton === null || addressFields === null) return
    /** An empty cart (none yet, or just ordered) shows only its message: never beside the form's loading texts. */
    const showEmpty = (): boolean => {
      if (readCart().length > 0) return false
      form.hidden = true
      empty.hidden = false
      return true
    }
    // Back from the confirmation restores this page as it was (the back/forward cache), cart and all: the order emptied it
    window.addEventListener('pageshow', (event) => { if (event.persisted) showEmpty() })
    if (showEmpty()) return
    const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null
    const deliveryMethod = () => (form.querySelector<HTMLInputElement>('input[name="deliveryMethod"]:checked')?.value ?? 'DELIVERY')
    const value = (name: string) => field(name)?.value.trim() ?? ''
    const items = () => readCart().map((line) => ({ productId: line.productId, quantity: line.quantity }))
    let quoteSeq = 0
    let chosenMethod = ''
    /** The code the quote and the order carry: set by Apply, dropped when the shop refuses it. */
    let appliedPromo = ''
    const promoStatus = $('[data-promo-status]')

    /** A 422 about the promo code: its message goes beside the field, and the cart is priced without it. */
    function refusePromo (answer: ApiAnswer): boolean {
      if (answer.status !== 422 || answer.body.field !== 'promoCode') return false
      fieldError('promoCode', String(answer.body.message))
      if (promoStatus !== null) promoStatus.textContent = ''
      appliedPromo = ''
      return true
    }

    function applyPromo (): void {
      appliedPromo = value('promoCode')
      fieldError('promoCode', '')
      if (promoStatus !== null) promoStatus.textContent = ''
      void quote()
    }

    function row (label: string, amount: string, className = ''): HTMLElement {
      return element('div', { className: `summary-row ${className}`.trim() }, [element('dt', { text: label }), element('dd', { text: amount })])
    }

    function showQuote (quote: Quote): void {
      const lines = readCart()
      const list = element('ul', { className: 'summary-items' }, lines.map((line) => element('li', {}, [
        element('span', { text: `${line.quantity} × ${line.name}` }), element('span', { text: money(line.price * line.quantity) })
      ])))
      const facts = element('dl', { className: 'summary-rows' }, [row('Subtotal', money(quote.subtotal))])
      const fee = row(deliveryMethod() === 'DELIVERY' ? 'Delivery' : 'Pickup', quote.deliveryFee === 0 ? 'Free' : money(quote.deliveryFee))
      facts.append(fee)
      const source = quote.deliveryFeeSetBy.provider === 'app'
        ? `Delivery fee set by the app ${quote.deliveryFeeSetBy.appName ?? ''}`.trim()
        : 'Standard delivery fee of the store'
      if (quote.promoCode !== null) facts.append(row(`Promo ${quote.promoCode}`, `−${money(quote.promoDiscount)}`, 'discount'))
      if (quote.appDiscount > 0) facts.append(row('App discounts', `−${money(quote.appDiscount)}`, 'discount'))
      facts.append(row('Total', money(quote.total), 'total'))
      const nodes: Node[] = [list, facts, element('p', { className: 'hint fee-source', text: source, attrs: { 'data-fee-source': quote.deliveryFeeSetBy.provider } })]
      if (quote.discountReasons.length > 0) {
        nodes.push(element('ul', { className: 'discount-reasons', attrs: { 'aria-label': 'Why you get a discount' } },
          quote.discountReasons.map((reason) => element('li', { text: reason }))))
      }
      summary!.replaceChildren(...nodes)
      showMethods(quote.paymentMethods)
    }

    let shownMethods = ''
    /** Redrawn only when the offer changes, so a re-quote never takes the focus from a method being chosen. */
    function showMethods (list: PaymentMethod[]): void {
      const signature = JSON.stringify(list)
      if (signature === shownMethods) return
      shownMethods = signature
      if (!list.some((m) => m.id === chosenMethod)) chosenMethod = list[0]?.id ?? ''
      methods!.replaceChildren(...list.map((method, index) => {
        const input = element('input', { attrs: { type: 'radio', name: 'paymentMethod', value: method.id, id: `method-${index}` } })
        input.checked = method.id === chosenMethod
        input.addEventListener('change', () => { chosenMethod = method.id })
        const icon = httpHref(method.icon)
        const label = element('label', { className: 'choice payment-method', attrs: { for: `method-${index}` } }, [input])
        if (icon !== null) {
          const image = element('img', { className: 'method-icon', attrs: { src: icon, alt: '', width: '28', height: '28' } })
          // an icon that does not load leaves no broken-image mark
          image.addEventListener('error', () => { image.remove() })
          label.append(image)
        }
        const text = element('span', { className: 'method-text' }, [element('span', { className: 'method-name', text: method.name })])
        if (method.provider === 'app') text.append(element('span', { className: 'badge', text: 'App' }))
        if (method.description !== undefined && method.description !== '') text.append(element('span', { className: 'method-description', text: method.description }))
        label.append(text)
        return label
      }))
    }

    async function quote (): Promise<void> {
      const seq = ++quoteSeq
      const body: Record<string, unknown> = { items: items(), deliveryMethod: deliveryMethod() }
      if (value('locality') !== '') body.locality = value('locality')
      if (deliveryMethod() === 'DELIVERY' && value('address') !== '') body.address = value('address')
      if (appliedPromo !== '') body.promoCode = appliedPromo
      summary!.setAttribute('aria-busy', 'true')
      let answer: ApiAnswer
      try {
        answer = await post('checkout/quote', body)
      } catch {
        answer = { status: 0, body: { message: 'Could not reach the shop. Check your connection and try again.' } }
      }
      if (seq !== quoteSeq) return
      summary!.removeAttribute('aria-busy')
      if (answer.status === 200) {
        quoteError!.textContent = ''
        const quoted = answer.body as unknown as Quote
        if (promoStatus !== null) promoStatus.textContent = quoted.promoCode === null ? '' : `Promo ${quoted.promoCode} applied: −${money(quoted.promoDiscount)}`
        showQuote(quoted)
      } else if (refusePromo(answer)) {
        await quote()
      } else {
        quoteError!.textContent = answer.status === 0 ? String(answer.body.message) : refusal(answer)
        summary!.replaceChildren(element('p', { className: 'empty', text: 'We could not price your cart.' }))
      }
    }

    let timer: ReturnType<typeof setTimeout> | undefined
    const quoteSoon = () => {
      clearTimeout(timer)
      timer = setTimeout(() => { void quote() }, 300)
    }

    function showAddress (): void {
      addressFields!.hidden = deliveryMethod() !== 'DELIVERY'
    }

    function fieldError (name: string, message: string): void {
      const target = form!.querySelector(`[data-error-for="${name}"]`)
      if (target !== null) target.textContent = message
      const input = field(name)
      if (input !== null) {
        if (message === '') input.removeAttribute('aria-invalid')
        else input.setAttribute('aria-invalid', 'true')
      }
    }

    function checkFields (): boolean {
      const problems: Array<[string, string]> = []
      if (deliveryMethod() === 'DELIVERY' && value('address') === '') problems.push(['address', 'Enter the delivery address.'])
      if (value('name') === '') problems.push(['name', 'Enter your name.'])
      const email = field('email') as HTMLInputElement | null
      if (email !== null && email.value.trim() !== '' && !email.validity.valid) problems.push(['email', 'Enter an email address like name@example.com.'])
      for (const name of ['address', 'name', 'email']) fieldError(name, problems.find(([n]) => n === name)?.[1] ?? '')
      if (problems.length > 0) field(problems[0][0])?.focus()
      return problems.length === 0
    }

    async function place (): Promise<void> {
      placeError!.textContent = ''
      if (!checkFields()) return
      if (chosenMethod === '') {
        placeError!.textContent = 'Choose how you want to pay.'
        return
      }
      const customer: Record<string, string> = { name: value('name') }
      if (value('phone') !== '') customer.phone = value('phone')
      if (value('email') !== '') customer.email = value('email')
      const body: Record<string, unknown> = { items: items(), customer, deliveryMethod: deliveryMethod(), paymentMethod: chosenMethod }
      if (deliveryMethod() === 'DELIVERY') body.address = value('address')
      if (value('locality') !== '') body.locality = value('locality')
      if (appliedPromo !== '') body.promoCode = appliedPromo
      placeButton!.disabled = true
      placeButton!.setAttribute('aria-busy', 'true')
      placeButton!.textContent = 'Placing your order…'
      let answer: ApiAnswer
      try {
        answer = await post('orders', body)
      } catch {
        answer = { status: 0, body: {} }
      }
      placeButton!.disabled = false
      placeButton!.removeAttribute('aria-busy')
      placeButton!.textContent = 'Place order'
      if (answer.status === 201) {
        const order = answer.body.order as { id: string, orderNumber: string }
        const saved: SavedOrder = {
          orderNumber: order.orderNumber,
          payment: (answer.body.payment as Payment | undefined) ?? null,
          paymentExpiresAt: (answer.body.paymentExpiresAt as string | null) ?? null
        }
        localStorage.setItem(orderKey(order.id), JSON.stringify(saved))
        writeCart([])
        location.assign(`orders/${encodeURIComponent(order.id)}`)
        return
      }
      if (answer.status === 502 && typeof answer.body.orderId === 'string') {
        // the order is saved and unpaid: its page shows its number and status
        placeError!.textContent = `The payment provider did not answer. Your order ${String(answer.body.orderNumber)} is saved and unpaid; the store will contact you.`
        writeCart([])
        return
      }
      if (refusePromo(answer)) {
        // the code stopped working since the quote (switched off or expired): the new total shows before a retry
        field('promoCode')?.focus()
        await quote()
        return
      }
      placeError!.textContent = answer.status === 0 ? 'Could not reach the shop. Check your connection and try again.' : refusal(answer)
      placeButton!.focus()
    }

    form.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement
      if (target.name === 'deliveryMethod') {
        showAddress()
        quoteSoon()
      }
    })
    form.addEventListener('input', (event) => {
      const target = event.target as HTMLInputElement
      if (target.name === 'locality' || target.name === 'address') quoteSoon()
    })
    $('[data-apply-promo]')?.addEventListener('click', applyPromo)
    field('promoCode')?.addEventListener('keydown', (event) => {
      // Enter in the code field applies it rather than placing the order
      if ((event as KeyboardEvent).key !== 'Enter') return
      event.preventDefault()
      applyPromo()
    })
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void place()
    })
    showAddress()
    void quote()
  }

  // ---- confirmation page

  function orderPage (): void {
    const section = $('[data-payment]')
    const details = $('[data-payment-details]')
    if (data.orderId === undefined || section === null || details === null) return
    let saved: SavedOrder | null = null
    try {
      saved = JSON.parse(localStorage.getItem(orderKey(data.orderId)) ?? 'null') as SavedOrder | null
    } catch {}
    if (saved === null) return
    const status = $('[data-payment-status]')?.getAttribute('data-payment-status') ?? ''
    const nodes: Node[] = []
    const payment = saved.payment
    if (payment !== null && status === 'PENDING') {
      const url = httpHref(payment.paymentUrl)
      if (url !== null) {
        nodes.push(element('p', {}, [element('a', { className: 'button primary', text: 'Open the payment page', attrs: { href: url, rel: 'noopener noreferrer', target: '_blank' } })]))
      }
      if (typeof payment.qrImage === 'string' && payment.qrImage.startsWith(QR_IMAGE_PREFIX)) {
        nodes.push(element('figure', { className: 'qr' }, [
          element('img', { attrs: { src: payment.qrImage, alt: `QR code to pay for order ${saved.orderNumber}`, width: '200', height: '200' } }),
          element('figcaption', { text: 'Scan with your phone to pay.' })
        ]))
      }
      if (typeof payment.invoiceId === 'string' && payment.invoiceId !== '') {
        nodes.push(element('p', {}, [element('span', { text: 'Invoice ' }), element('strong', { text: payment.invoiceId, attrs: { 'data-invoice-id': '' } })]))
      }
    }
    const expiry = saved.paymentExpiresAt === null ? null : new Date(saved.paymentExpiresAt)
    if (expiry !== null && !Number.isNaN(expiry.getTime()) && status === 'PENDING') {
      const when = expiry.toLocaleString(data.store.locale, { dateStyle: 'medium', timeStyle: 'short' })
      nodes.push(element('p', { className: 'hint', attrs: { 'data-expires-at': expiry.toISOString() } }, [
        element('span', { text: payment === null ? 'Your items are reserved until ' : 'Please pay by ' }),
        element('time', { text: when, attrs: { datetime: expiry.toISOString() } }),
        element('span', { text: payment === null ? ' while the store confirms your order.' : '; after that the order is cancelled.' })
      ]))
    }
    if (nodes.length === 0) return
    details.replaceChildren(...nodes)
    section.hidden = false
  }

  showCount()
  if (data.page === 'product') productPage()
  else if (data.page === 'cart') cartPage()
  else if (data.page === 'checkout') checkoutPage()
  else if (data.page === 'order') orderPage()
  // 'store' (the home and content pages): the header's count is all
}

const data = readData()
if (data !== null) start(data)
