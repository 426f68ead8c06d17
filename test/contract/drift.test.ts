import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { APP_CATEGORIES, CategorySchema, EVENT_NAMES, EVENT_SCOPES, EventNameSchema, HOOK_POINTS, SCOPES, ScopeSchema } from '../../sdk/src/contract/index.ts'
import * as dbSchema from '../../server/db/schema/index.ts'
import * as contract from '../../sdk/src/contract/index.ts'
import * as serverEvents from '../../server/events.ts'
import { HOOK_SCOPES } from '../../plugins/apps/manifest/schemas.ts'
import { WEBHOOK_EVENTS, HOOK_POINTS as SDK_HOOK_POINTS } from '../../sdk/src/events.ts'
import * as adminTypes from '../../admin-ui/src/lib/types.ts'
import { ORDER_STATUSES } from '../../sdk/src/types.ts'
import { OrderStatus, ProductSchema, WebhookRegistrationSchema } from '../../sdk/src/contract/resources.ts'
import * as commerceSchemas from '../../plugins/commerce/schemas.ts'
import * as webhookSchemas from '../../plugins/webhooks/schemas.ts'
import { CONTRACT_RESOURCES, findDrift, findResourceCopies, readContractUsers } from './drift.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CONTRACT = new URL('../../sdk/src/contract/', import.meta.url)

t.test('the contract is the one source of scopes, events, categories and hook points', async (t) => {
  t.test('no other file writes out one of its lists', async (t) => {
    t.same(findDrift(readContractUsers(ROOT)).map((d) => `${d.file}:${d.line} (${d.list})`), [])
  })

  t.test('the checker finds a second copy, e.g. a scope added in one place only', async (t) => {
    const copy = `export const MY_SCOPES = [${[...SCOPES, 'write_everything'].map((s) => `'${s}'`).join(', ')}] as const`
    t.match(findDrift([{ path: 'plugins/x/scopes.ts', text: copy }]), [{ file: 'plugins/x/scopes.ts', line: 1, list: 'scopes' }])
    const union = "export type Hook = 'checkout.payment_methods' | 'checkout.create_payment' | 'order.validate'"
    t.match(findDrift([{ path: 'sdk/src/x.ts', text: union }]), [{ list: 'hook points' }], 'a union type')
    const map = `const DESCRIPTIONS = { ${EVENT_NAMES.slice(0, Math.ceil(EVENT_NAMES.length / 2)).map((e) => `'${e}': 'x'`).join(', ')} }`
    t.match(findDrift([{ path: 'admin-ui/src/x.tsx', text: map }]), [{ list: 'events' }], 'an object keyed by the names')
    t.same(findDrift([{ path: 'plugins/x/app.ts', text: "const requested = ['read_products', 'read_orders']" }]), [], 'a short list is data, not a copy')
    const statuses = "const FLOW = ['PENDING', 'CONFIRMED', 'PREPARING', 'READY', 'IN_DELIVERY', 'DELIVERED', 'CANCELLED']"
    t.match(findDrift([{ path: 'plugins/x/orders.ts', text: statuses }]), [{ list: 'order statuses' }], 'the whole list of order statuses')
    t.same(findDrift([{ path: 'plugins/x/pay.ts', text: "type Outcome = 'COMPLETED' | 'EXPIRED' | 'FAILED'" }]), [], 'a subset of the statuses is a state machine\'s data')
    const typed = `const WORDS: Record<Scope, string> = { ${SCOPES.map((s) => `${s}: 'x'`).join(', ')} }`
    t.same(findDrift([{ path: 'plugins/x/words.ts', text: typed }]), [], 'a map typed Record<Scope, …> is kept in step by the compiler')
  })

  t.test('every user reads the same lists', async (t) => {
    t.same(dbSchema.apps.category.enumValues, [...APP_CATEGORIES], 'the database column')
    t.same(ScopeSchema.enum, [...SCOPES], 'the TypeBox scope enum')
    t.same(EventNameSchema.enum, [...EVENT_NAMES], 'the TypeBox event enum')
    t.same(CategorySchema.enum, [...APP_CATEGORIES], 'the TypeBox category enum')
    t.equal(serverEvents.SCOPES, SCOPES, 'server/events.ts re-exports the contract')
    t.equal(serverEvents.EVENT_SCOPES, EVENT_SCOPES)
    t.same(Object.keys(HOOK_SCOPES).sort(), [...HOOK_POINTS].sort(), 'the manifest hook scopes')
    t.equal(WEBHOOK_EVENTS, EVENT_NAMES, 'the SDK event catalog')
    t.equal(SDK_HOOK_POINTS, HOOK_POINTS, 'the SDK hook points')
    t.equal(adminTypes.SCOPES, SCOPES, 'the admin UI')
    t.equal(adminTypes.CATEGORIES, APP_CATEGORIES)
    const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'))
    t.same(document.components.schemas.Scope.enum, [...SCOPES], 'the committed OpenAPI document')
    t.same(document.components.schemas.EventName.enum, [...EVENT_NAMES])
  })

  t.test('the contract imports nothing but itself and TypeBox', async (t) => {
    for (const name of readdirSync(CONTRACT)) {
      const text = readFileSync(new URL(name, CONTRACT), 'utf8')
      for (const match of text.matchAll(/from '([^']+)'/g)) {
        t.ok(match[1].startsWith('./') || match[1] === '@sinclair/typebox', `${name} imports ${match[1]}`)
      }
    }
  })
})

t.test('the contract is the one source of the resource shapes (Product, Order, Review, …)', async (t) => {
  t.test('no other file defines one of them again', async (t) => {
    t.same(findResourceCopies(readContractUsers(ROOT)).map((c) => `${c.file}:${c.line} (${c.resource})`), [])
  })

  t.test('the checker finds a second definition', async (t) => {
    t.ok(CONTRACT_RESOURCES.Product.includes('lowStockThreshold'), 'the resources are read from the contract')
    // the SDK's hand-written Product before the contract: stock, lowStockThreshold and updatedAt had drifted away
    const oldSdk = `export interface Product {
  id: string
  name: string
  description: string
  price: number
  category: string
  isAvailable: boolean
  imageUrl: string
  slug: string
  status: string
  createdAt: string
}`
    t.match(findResourceCopies([{ path: 'sdk/src/types.ts', text: oldSdk }]), [{ file: 'sdk/src/types.ts', line: 1, resource: 'Product' }], 'an interface with most of the fields')
    const schema = `import { Type } from '@sinclair/typebox'
export const MyProduct = Type.Object({ ${CONTRACT_RESOURCES.Product.map((f) => `${f}: Type.String()`).join(', ')} })`
    t.match(findResourceCopies([{ path: 'plugins/x/schemas.ts', text: schema }]), [{ line: 2, resource: 'Product' }], 'a Type.Object with the field set')
    t.match(findResourceCopies([{ path: 'admin-ui/src/x.tsx', text: 'interface Order { id: string, amount: number }' }]), [{ resource: 'Order' }], 'an interface named after a resource')
    t.match(findResourceCopies([{ path: 'admin-ui/src/x.ts', text: 'type Review = { id: string, rating: number }' }]), [{ resource: 'Review' }], 'an object type named after a resource')
    t.match(findResourceCopies([{ path: 'sdk/src/x.ts', text: `type Row = { ${CONTRACT_RESOURCES.Delivery.map((f) => `${f}: unknown`).join(', ')} }` }]), [{ resource: 'Delivery' }], 'an object type with the field set')
  })

  t.test('values, request bodies and derived types are not definitions', async (t) => {
    const serializer = `export const toProduct = (row: Row): Product => ({ ${CONTRACT_RESOURCES.Product.map((f) => `${f}: row.${f}`).join(', ')} })`
    t.same(findResourceCopies([{ path: 'plugins/x/serializers.ts', text: serializer }]), [], 'a serializer builds a value')
    const body = `export const Body = Type.Object({ ${CONTRACT_RESOURCES.Product.map((f) => `${f}: Type.String()`).join(', ')} }, { additionalProperties: false })`
    t.same(findResourceCopies([{ path: 'plugins/x/schemas.ts', text: body }]), [], 'a request body')
    t.same(findResourceCopies([{ path: 'sdk/src/x.ts', text: 'export type Product = Static<typeof ProductSchema>\ntype Business = Pick<ContractBusiness, \'id\' | \'name\'>' }]), [], 'types derived from the contract')
    t.same(findResourceCopies([{ path: 'plugins/x/hooks.ts', text: 'interface HookCall { id: string, statusCode: number, durationMs: number, success: boolean, error: string }' }]), [], 'another resource sharing a few field names')
  })

  t.test('the server and the SDK use the contract\'s schemas', async (t) => {
    t.equal(commerceSchemas.ProductSchema, ProductSchema, 'plugins/commerce re-exports the contract')
    t.equal(webhookSchemas.WebhookSchema, WebhookRegistrationSchema, 'plugins/webhooks re-exports the contract')
    t.same([...ORDER_STATUSES], OrderStatus.anyOf.map((literal) => literal.const), 'the SDK order statuses')
    t.equal(ORDER_STATUSES, contract.ORDER_STATUSES, 'the SDK re-exports the contract\'s order statuses')
    t.equal(dbSchema.ORDER_STATUSES, contract.ORDER_STATUSES, 'the database column reads the contract\'s order statuses')
    t.same(dbSchema.orders.paymentStatus.enumValues, [...contract.PAYMENT_STATUSES], 'the database column reads the contract\'s payment statuses')
    t.same(dbSchema.products.status.enumValues, [...contract.PRODUCT_STATUSES], 'and the product statuses')
    t.equal(commerceSchemas.GuestOrderBodySchema, contract.GuestOrderBodySchema, 'the order body is the contract\'s, which the SDK types CreateOrderInput with')
  })
})
