/** Examples of the main resources, shown in the OpenAPI document (and so in generated clients' docs). */

export const productExample = {
  id: 'prod_7Yk2',
  name: 'Sourdough loaf',
  description: 'Naturally leavened, baked daily.',
  price: 650,
  category: 'bread',
  isAvailable: true,
  imageUrl: '/media/med_3f9a',
  slug: 'sourdough-loaf',
  status: 'ACTIVE',
  stock: 24,
  lowStockThreshold: 5,
  createdAt: '2026-01-15T10:30:00.000Z',
  updatedAt: '2026-01-15T10:30:00.000Z'
}

export const orderExample = {
  id: 'ord_9Qx1',
  orderNumber: '1042',
  status: 'CONFIRMED',
  items: [
    {
      productId: 'prod_7Yk2',
      name: 'Sourdough loaf',
      quantity: 2,
      unitPrice: 650,
      total: 1300
    }
  ],
  subtotal: 1300,
  deliveryFee: 500,
  discount: 0,
  promoCode: null,
  promoDiscount: 0,
  amount: 1800,
  currency: 'USD',
  deliveryMethod: 'DELIVERY',
  paymentMethod: 'CASH',
  paymentStatus: 'PENDING',
  isGuest: true,
  customer: {
    name: 'Ada Lovelace',
    phone: '+15550100',
    email: 'ada@example.com'
  },
  address: '12 Baker Street',
  createdAt: '2026-01-15T10:30:00.000Z',
  updatedAt: '2026-01-15T10:30:00.000Z'
}

export const reviewExample = {
  id: 'rev_4Tn8',
  productId: 'prod_7Yk2',
  rating: 5,
  text: 'Crisp crust, soft crumb.',
  authorName: 'Ana',
  createdAt: '2026-01-15T10:30:00.000Z',
  updatedAt: '2026-01-15T10:30:00.000Z'
}

export const pageExample = {
  id: 'page_2Lm5',
  slug: 'home',
  title: 'Home',
  isPublished: true,
  blocks: [
    {
      id: 'blk_1',
      installationId: 'inst_8Hd3',
      blockType: 'reviews-carousel',
      settings: {
        count: 3
      }
    }
  ],
  updatedAt: '2026-01-15T10:30:00.000Z'
}

export const businessExample = {
  id: 'biz_5Rw7',
  name: 'Corner Bakery',
  slug: 'corner-bakery',
  type: 'RESTAURANT',
  address: '12 Baker Street',
  currency: 'USD',
  locale: 'en',
  timezone: 'UTC',
  email: 'hello@corner-bakery.example',
  phone: '+15550123'
}

/** A recurring plan with a trial and a usage cap (DESIGN §23). */
export const pricingPlanExample = {
  id: 'pro',
  name: 'Pro',
  kind: 'RECURRING',
  price: { amount: 1900, currency: 'USD' },
  interval: 'EVERY_30_DAYS',
  trialDays: 14,
  usage: { cappedAmount: { amount: 5000, currency: 'USD' }, terms: '$0.05 per stamp card sent' }
}

export const appExample = {
  id: 'app_6Kp1',
  clientId: 'fbci_2Nf8Qw',
  name: 'Loyalty Stamps',
  slug: 'loyalty-stamps',
  description: 'A stamp card for repeat customers.',
  category: 'loyalty',
  scopes: ['read_orders', 'read_business'],
  approvedScopes: ['read_orders', 'read_business'],
  pricing: { plans: [pricingPlanExample] },
  approvedPricing: { plans: [pricingPlanExample] },
  billingCurrency: 'USD',
  redirectUrl: 'https://stamps.example.com/oauth/callback',
  appUrl: 'https://stamps.example.com/install',
  webhookUrl: 'https://stamps.example.com/webhooks',
  webhookEvents: ['order.created'],
  webhookSignatureScheme: 'spec',
  apiVersion: null,
  iconUrl: '/media/med_1a2b',
  screenshots: [],
  version: '1.2.0',
  status: 'APPROVED',
  isPublished: true,
  reviewNotes: null,
  changesRequested: false,
  manifest: {},
  createdAt: '2026-01-15T10:30:00.000Z',
  updatedAt: '2026-01-15T10:30:00.000Z'
}

export const webhookRegistrationExample = {
  id: 'wh_3Jc9',
  url: 'https://stamps.example.com/webhooks/orders',
  events: ['order.created', 'order.status_changed'],
  description: 'Order stream',
  isActive: true,
  disabledReason: null,
  consecutiveFailures: 0,
  isAppWebhook: false,
  signatureScheme: 'spec',
  apiVersion: null,
  createdAt: '2026-01-15T10:30:00.000Z',
  updatedAt: '2026-01-15T10:30:00.000Z'
}
