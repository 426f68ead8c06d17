import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const DOCUMENT = join(ROOT, 'openapi/openapi.json')

/**
 * What an app developer does with the committed document: generate types with openapi-typescript and
 * call the API with openapi-fetch. The script calls one operation of every tag by its path, with
 * the named component types, and must type-check (paths without trailing slash, bodies, enums).
 */
const SCRIPT = `
import createClient from 'openapi-fetch'
import type { components, operations, paths } from './api.d.ts'

// the App API answers in the newest API version (its own components); the merchant's Product and Order stay unversioned
type Product = components['schemas']['Product_2026-12']
type Order = components['schemas']['Order_2026-12']
type MerchantProduct = components['schemas']['Product']
type App = components['schemas']['App']
type WebhookRegistration = components['schemas']['WebhookRegistration']
type Scope = components['schemas']['Scope']
type EventName = components['schemas']['EventName']

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' })
const auth = { headers: { authorization: 'Bearer x' } }

export async function everyTag (): Promise<void> {
  await api.GET('/health') // operations
  const session = await api.POST('/auth/login', { body: { email: 'a@example.com', password: 'correct-horse' } }) // auth
  const token: string | undefined = session.data?.token
  const apps = await api.GET('/developer/apps', { ...auth, params: { query: { page: 1, limit: 20 } } }) // portal, no trailing slash
  const mine: App[] | undefined = apps.data?.data
  await api.PUT('/developer/apps/{appId}/manifest', { ...auth, params: { path: { appId: 'app_1' } }, body: { manifest: { blocks: [] } } }) // manifest
  await api.GET('/review/apps', auth) // review
  await api.GET('/marketplace/apps', { params: { query: { category: 'loyalty' } } }) // marketplace
  const downloads = await api.GET('/downloads') // downloads
  const sdkUrl: string | undefined = downloads.data?.sdk.url
  await api.GET('/merchant/installations', auth) // installations
  const metadata = await api.GET('/.well-known/oauth-authorization-server') // oauth
  const tokenEndpoint: string | undefined = metadata.data?.token_endpoint
  const products = await api.GET('/app-api/products', { ...auth, params: { query: { limit: 100 } } }) // app-api
  const first: Product | undefined = products.data?.data[0]
  const order = await api.PATCH('/app-api/orders/{id}/status', { ...auth, params: { path: { id: 'ord_1' } }, body: { status: 'CONFIRMED' } })
  const confirmed: Order | undefined = order.data
  const events: EventName[] = ['order.created']
  const created = await api.POST('/webhooks', { ...auth, body: { url: 'https://app.example.com/hooks', events } }) // webhooks
  const hook: WebhookRegistration | undefined = created.data
  const asked = await api.POST('/app-api/billing/subscriptions', { ...auth, body: { planId: 'pro', returnUrl: 'https://app.example.com/billing' } }) // billing
  const usageLeft: number | undefined = asked.data?.usage?.balanceRemaining.amount
  const exported = await api.POST('/app-api/bulk-exports', { ...auth, body: { resource: 'orders', updatedSince: '1970-01-01T00:00:00Z' } }) // bulk-exports
  const exportUrl: string | null | undefined = exported.data?.url
  const changed = await api.GET('/app-api/orders', { ...auth, params: { query: { updatedSince: '1970-01-01T00:00:00Z', limit: 50 } } })
  const nextCursor: string | null | undefined = changed.data !== undefined && 'nextCursor' in changed.data ? changed.data.nextCursor : undefined
  const listed = await api.GET('/merchant/products', auth) // merchant
  const merchantProduct: MerchantProduct | undefined = listed.data?.data[0]
  const merchantPrice: number | undefined = merchantProduct?.price
  const timeline = await api.GET('/merchant/activity', { ...auth, params: { query: { resource: 'order:ord_1', actor: 'app' } } }) // activity
  const actorName: string | undefined = timeline.data?.data[0]?.actor.name
  const appPrice: number | undefined = first?.price.amount
  const versions = await api.GET('/developer/api-versions') // api-versions
  const current: string | undefined = versions.data?.current
  await api.POST('/store/{businessSlug}/api/checkout/quote', { params: { path: { businessSlug: 'shop' } }, body: { items: [{ productId: 'p', quantity: 1 }], deliveryMethod: 'DELIVERY' } }) // storefront
  const scope: Scope = 'read_products'
  const operation: keyof operations = 'listProducts'
  console.log(token, mine, tokenEndpoint, sdkUrl, first, confirmed, hook, current, scope, operation, merchantPrice, appPrice, usageLeft, exportUrl, nextCursor, actorName)
}
`

const REJECTED = `
import createClient from 'openapi-fetch'
import type { paths } from './api.d.ts'
const api = createClient<paths>({ baseUrl: 'http://localhost:3000' })
// @ts-expect-error unknown events are refused by the type, as by the server
await api.POST('/webhooks', { body: { url: 'https://app.example.com/hooks', events: ['order.eaten'] } })
// @ts-expect-error the document lists one path form, without the trailing slash
await api.GET('/developer/apps/')
`

t.test('a client generated from openapi/openapi.json type-checks a call of every tag', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'generated-client-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  await run(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), DOCUMENT, '-o', join(dir, 'api.d.ts')], { cwd: dir })

  const tags = (JSON.parse(readFileSync(DOCUMENT, 'utf8')).tags as Array<{ name: string }>).map((tag) => tag.name)
  for (const tag of tags) t.match(SCRIPT, `// ${tag}`, `the script calls an operation tagged ${tag}`)

  await writeFile(join(dir, 'client.ts'), SCRIPT)
  await writeFile(join(dir, 'rejected.ts'), REJECTED)
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, allowImportingTsExtensions: true, lib: ['ES2023', 'DOM'], types: [] },
    files: ['client.ts', 'rejected.ts']
  }))
  const result = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir })
    .then(() => ({ code: 0, output: '' }), (error: { code: number, stdout: string }) => ({ code: error.code, output: error.stdout }))
  t.equal(result.code, 0, result.output)
})
