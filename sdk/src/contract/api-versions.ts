import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox'
import { API_VERSIONS, type ApiVersion } from './api-version-names.ts'
import { OrderItemSchema, OrderSchema, ProductSchema } from './resources.ts'

/**
 * The API versions (issue #31): dated releases, each installation pinned to one, a request naming
 * another with the `App-Api-Version` header. This module is the one registry: each version's release
 * date, its sunset (null until one is announced) and its changes, written once as transforms between
 * adjacent versions beside the schemas they change. The App API's handlers, the webhook deliveries and
 * the hook runner speak the newest shape (LATEST_API_VERSION), Stripe-style: what leaves for an app
 * pinned to an older version is downgraded change by change (newest first), what arrives from one (a
 * request body, a hook's answer) upgraded to the newest shape before anything reads it. The platform's
 * own records (the merchant API's answers, the outbox's events) are unversioned: they have the first
 * version's shape (DOMAIN_API_VERSION), and `present` shows them in the newest one. Free of server
 * code: the server, the SDK (its per-version types) and the admin UI read it.
 */

// the names alone (resources.ts needs them without the transforms, which need resources.ts)
export { API_VERSIONS, ApiVersionSchema, SPEC_API_VERSION, type ApiVersion } from './api-version-names.ts'

/** The request header naming a version, and the header of every answer, delivery and hook call saying which one it used. */
export const API_VERSION_HEADER = 'App-Api-Version'
/**
 * The newest version: the shape the App API's handlers, the webhook deliveries and the hook runner
 * speak, and the server's API_VERSION_CURRENT default (the newest version offered; an app opts into it with its `apiVersion`).
 */
export const LATEST_API_VERSION: ApiVersion = '2026-12'
/**
 * The shape of the platform's unversioned records: the merchant API's answers, the outbox's stored
 * events, the commerce module's numbers. The first version's, which no release changes: a release
 * never rewrites a stored row, and `present` shows a record in the newest shape.
 */
export const DOMAIN_API_VERSION: ApiVersion = '2026-11'

export const isApiVersion = (value: unknown): value is ApiVersion => typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value)

/** What a transform may need besides the value: the business's currency (products and order events carry none). */
export interface TransformContext { currency: string }

/**
 * The shapes a change touches, by name: a resource's schema title (`Order`, `Product`), a webhook's
 * `event:<name>` (its `data`) or a hook point's `hook:<point>` payload and `answer:<point>`.
 */
export type ShapeName = string

export interface VersionChange {
  /** Stable id, shown in the changelog. */
  id: string
  title: string
  /** What a developer reads in the changelog (GET /developer/api-versions). */
  description: string
  /** The shapes it changes: transforms are called for these only. */
  shapes: readonly ShapeName[]
  /**
   * this version's shape → the previous one's: what leaves for an app pinned before it (answers,
   * webhook data, hook payloads). No context: the newer shape holds all the older one shows.
   */
  down: (shape: ShapeName, value: unknown) => unknown
  /**
   * the previous version's shape → this one's: what arrives from an app pinned before it (request
   * bodies, hook answers), and the platform's unversioned records on their way to the newest shape (`present`)
   */
  up: (shape: ShapeName, value: unknown, context: TransformContext) => unknown
}

export interface ApiVersionRelease {
  version: ApiVersion
  /** YYYY-MM-DD */
  releasedOn: string
  /** YYYY-MM-DD, the first day it is refused; null while none is announced (the server's API_VERSION_SUNSETS may announce one). */
  sunset: string | null
  /** The changes from the previous version to this one (none for the first). */
  changes: readonly VersionChange[]
}

// ---- 2026-12: money amounts as { amount, currency } objects

export const MoneyObjectSchema = Type.Object({
  amount: Type.Integer({ minimum: 0, description: 'Integer minor units' }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', examples: ['USD'] })
}, { title: 'MoneyAmount', description: 'An amount of money (API version 2026-12 and later)' })
export type MoneyAmount = Static<typeof MoneyObjectSchema>

const ORDER_MONEY = ['subtotal', 'deliveryFee', 'discount', 'promoDiscount', 'amount'] as const
const ORDER_ITEM_MONEY = ['unitPrice', 'total'] as const
const PRODUCT_MONEY = ['price'] as const
/** The money fields of each resource: what `money-objects` turns into { amount, currency } (a bulk export's SQL reads them). */
export const MONEY_FIELDS: Record<'Order' | 'OrderItem' | 'Product', readonly string[]> = { Order: ORDER_MONEY, OrderItem: ORDER_ITEM_MONEY, Product: PRODUCT_MONEY }
/** The id of the change that makes amounts objects. */
export const MONEY_OBJECTS_CHANGE = 'money-objects'
/** Webhook payloads: order.* carry amount and deliveryFee, payment.* an amount and their currency. */
const ORDER_EVENT_MONEY = ['amount', 'deliveryFee'] as const
const PAYMENT_EVENT_MONEY = ['amount'] as const
const ORDER_EVENTS = ['order.created', 'order.status_changed', 'order.delivered', 'order.cancelled'] as const
const PAYMENT_EVENTS = ['payment.completed', 'payment.expired'] as const
const PRODUCT_EVENTS = ['product.created', 'product.updated', 'product.deleted'] as const
/** Hook payloads with money (the checkout's context; create_payment's amount is a string in 2026-11) and the answers that name an amount. */
const HOOK_PAYLOAD_MONEY: Record<string, readonly string[]> = {
  'checkout.shipping_rates': ['subtotal', 'builtInFee'],
  'order.calculate_discounts': ['subtotal', 'promoDiscount', 'deliveryFee'],
  'order.validate': ['subtotal'],
  'checkout.create_payment': ['amount']
}
const HOOK_ANSWER_MONEY: Record<string, readonly string[]> = { 'checkout.shipping_rates': ['fee'], 'order.calculate_discounts': ['discount'] }

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function moneyUp (value: Json, fields: readonly string[], currency: string): Json {
  const copy: Json = { ...value }
  for (const field of fields) {
    const amount = copy[field]
    if (typeof amount === 'number') copy[field] = { amount, currency }
    else if (typeof amount === 'string' && /^\d+$/.test(amount)) copy[field] = { amount: Number(amount), currency }
  }
  return copy
}
function moneyDown (value: Json, fields: readonly string[], asString = false): Json {
  const copy: Json = { ...value }
  for (const field of fields) {
    const money = copy[field]
    if (isObject(money) && typeof money.amount === 'number') copy[field] = asString ? String(money.amount) : money.amount
  }
  return copy
}
const currencyOf = (value: Json, context: TransformContext): string => typeof value.currency === 'string' ? value.currency : context.currency
const itemsOf = (value: Json): unknown[] | null => Array.isArray(value.items) ? value.items : null

const moneyObjects: VersionChange = {
  id: 'money-objects',
  title: 'Money amounts are { amount, currency } objects',
  description: 'Every amount of money in orders (subtotal, deliveryFee, discount, promoDiscount, amount, and each item\'s unitPrice and total), ' +
    'products (price), the order.*, payment.* and product.* webhook payloads and the checkout hooks\' payloads and answers ' +
    '(their subtotal, builtInFee, promoDiscount, deliveryFee, and checkout.create_payment\'s amount, a string in 2026-11; ' +
    'checkout.shipping_rates\' fee and order.calculate_discounts\' discount may be answered either way) is an object { "amount": <integer minor units>, "currency": "USD" } ' +
    'instead of a plain integer. 2026-11 keeps plain integers.',
  shapes: [
    'Order', 'Product', ...[...ORDER_EVENTS, ...PAYMENT_EVENTS, ...PRODUCT_EVENTS].map((event) => `event:${event}`),
    ...Object.keys(HOOK_PAYLOAD_MONEY).map((point) => `hook:${point}`), ...Object.keys(HOOK_ANSWER_MONEY).map((point) => `answer:${point}`)
  ],
  down (shape, value) {
    if (!isObject(value)) return value
    // checkout.create_payment's amount was a string of minor units in 2026-11
    if (shape.startsWith('hook:')) return moneyDown(value, HOOK_PAYLOAD_MONEY[shape.slice('hook:'.length)] ?? [], shape === 'hook:checkout.create_payment')
    if (shape.startsWith('answer:')) return moneyDown(value, HOOK_ANSWER_MONEY[shape.slice('answer:'.length)] ?? [])
    if (shape === 'Order') {
      const downgraded = moneyDown(value, ORDER_MONEY)
      const items = itemsOf(value)
      if (items !== null) downgraded.items = items.map((item) => isObject(item) ? moneyDown(item, ORDER_ITEM_MONEY) : item)
      return downgraded
    }
    return moneyDown(value, eventMoney(shape))
  },
  up (shape, value, context) {
    if (!isObject(value)) return value
    const currency = currencyOf(value, context)
    if (shape.startsWith('hook:')) return moneyUp(value, HOOK_PAYLOAD_MONEY[shape.slice('hook:'.length)] ?? [], currency)
    if (shape.startsWith('answer:')) return moneyUp(value, HOOK_ANSWER_MONEY[shape.slice('answer:'.length)] ?? [], currency)
    if (shape === 'Order') {
      const upgraded = moneyUp(value, ORDER_MONEY, currency)
      const items = itemsOf(value)
      if (items !== null) upgraded.items = items.map((item) => isObject(item) ? moneyUp(item, ORDER_ITEM_MONEY, currency) : item)
      return upgraded
    }
    return moneyUp(value, eventMoney(shape), currency)
  }
}

/** The money fields of a product or of an order.*, payment.* or product.* event's data. */
function eventMoney (shape: ShapeName): readonly string[] {
  if (shape === 'Product' || PRODUCT_EVENTS.some((event) => shape === `event:${event}`)) return PRODUCT_MONEY
  if (ORDER_EVENTS.some((event) => shape === `event:${event}`)) return ORDER_EVENT_MONEY
  if (PAYMENT_EVENTS.some((event) => shape === `event:${event}`)) return PAYMENT_EVENT_MONEY
  return []
}

/** The registry: oldest first. A new version appends its release and its changes here. */
export const API_VERSION_RELEASES: readonly ApiVersionRelease[] = [
  { version: '2026-11', releasedOn: '2026-11-01', sunset: null, changes: [] },
  { version: '2026-12', releasedOn: '2026-12-01', sunset: null, changes: [moneyObjects] }
]

export const releaseOf = (version: ApiVersion): ApiVersionRelease => API_VERSION_RELEASES.find((release) => release.version === version) as ApiVersionRelease

/** The changes that touch `shape` in the releases after `older` up to `newer`, oldest first. */
function changesOf (shape: ShapeName, older: ApiVersion, newer: ApiVersion): readonly VersionChange[] {
  // the registry is fixed: each (shape, span) is looked up once, not once per value transformed
  const key = `${shape} ${older} ${newer}`
  let changes = CHANGES.get(key)
  if (changes === undefined) {
    changes = API_VERSION_RELEASES
      .filter((release) => release.version > older && release.version <= newer)
      .flatMap((release) => release.changes.filter((change) => change.shapes.includes(shape)))
    CHANGES.set(key, changes)
  }
  return changes
}
const CHANGES = new Map<string, readonly VersionChange[]>()

/** Whether `version` shows a shape differently from the newest version. */
export const shapeChanges = (shape: ShapeName, version: ApiVersion): boolean => changesOf(shape, version, LATEST_API_VERSION).length > 0

/** Whether `version` shows a shape exactly as the platform's unversioned record has it (DOMAIN_API_VERSION's shape): no transform, no context. */
export const showsAsRecorded = (shape: ShapeName, version: ApiVersion): boolean => changesOf(shape, DOMAIN_API_VERSION, version).length === 0

/** A value in the newest shape (an answer, a webhook's data, a hook's payload), as an app pinned to `version` reads it: newest change first. */
export function downgrade (shape: ShapeName, value: unknown, version: ApiVersion): unknown {
  return changesOf(shape, version, LATEST_API_VERSION).reduceRight((result, change) => change.down(shape, result), value)
}

/** A value in `version`'s shape (a request body, a hook's answer), in the newest shape: oldest change first. */
export function upgrade (shape: ShapeName, value: unknown, version: ApiVersion, context: TransformContext): unknown {
  return changesOf(shape, version, LATEST_API_VERSION).reduce((result, change) => change.up(shape, result, context), value)
}

/** One of the platform's unversioned records (a merchant API answer, a stored event's data) in the newest shape. */
export const present = <T = unknown>(shape: ShapeName, value: unknown, context: TransformContext): T =>
  upgrade(shape, value, DOMAIN_API_VERSION, context) as T

/**
 * The resource a schema title names: `Order` for the merchant's `Order` and the newest version's
 * `Order_2026-12` alike (a version's own schemas carry their version in the title, so that the OpenAPI
 * document keeps them apart from the merchant's).
 */
export const shapeOfTitle = (title: string): ShapeName => title.replace(/_\d{4}-\d{2}$/, '')

// ---- the 2026-12 schemas, derived from the merchant's unversioned ones (one source: the contract's resources)

function withMoney<T extends TProperties> (schema: TObject<T>, fields: readonly string[], extra: TProperties = {}): TSchema {
  const properties: TProperties = { ...schema.properties }
  // each field an untitled copy with its own description (the OpenAPI document names every titled schema once)
  for (const field of fields) {
    properties[field] = Type.Object(MoneyObjectSchema.properties, { description: (schema.properties[field] as { description?: string }).description })
  }
  const name = schema.title as string
  // the examples are the merchant's, shown in 2026-12 by the change's own transform (USD, the examples' currency)
  const examples = (schema as { examples?: unknown[] }).examples?.map((example) => moneyObjects.up(name, example, { currency: 'USD' }))
  return Type.Object({ ...properties, ...extra }, { title: `${name}_2026-12`, ...(examples === undefined ? {} : { examples }) })
}

const moneyOrderItem = withMoney(OrderItemSchema, ORDER_ITEM_MONEY)
/**
 * Each version's schemas of the resources that differ between versions: the App API's routes answer
 * with the newest's (VERSION_SCHEMAS[LATEST_API_VERSION]); each version's OpenAPI document shows its own.
 * The first version's are the merchant's (unversioned) schemas; a later one's are derived from them.
 */
export const VERSION_SCHEMAS: Record<ApiVersion, { Order: TSchema, OrderItem: TSchema, Product: TSchema }> = {
  '2026-11': { Order: OrderSchema, OrderItem: OrderItemSchema, Product: ProductSchema },
  '2026-12': {
    Order: withMoney(OrderSchema, ORDER_MONEY, { items: Type.Array(moneyOrderItem) }),
    OrderItem: moneyOrderItem,
    Product: withMoney(ProductSchema, PRODUCT_MONEY)
  }
}
/** The newest version's schemas: what the App API's handlers answer. */
export const CURRENT_SCHEMAS = VERSION_SCHEMAS[LATEST_API_VERSION]

/** The resources whose TypeScript type differs by version (the SDK's client is typed with these). */
export type MoneyOrder = Omit<Static<typeof OrderSchema>, typeof ORDER_MONEY[number] | 'items'> & {
  [K in typeof ORDER_MONEY[number]]: MoneyAmount
} & { items: Array<Omit<Static<typeof OrderItemSchema>, typeof ORDER_ITEM_MONEY[number]> & { [K in typeof ORDER_ITEM_MONEY[number]]: MoneyAmount }> }
export type MoneyProduct = Omit<Static<typeof ProductSchema>, 'price'> & { price: MoneyAmount }

export interface VersionedResources {
  '2026-11': { Order: Static<typeof OrderSchema>, Product: Static<typeof ProductSchema> }
  '2026-12': { Order: MoneyOrder, Product: MoneyProduct }
}
