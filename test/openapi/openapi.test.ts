import t from 'tap'
import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { renderOpenApi, OPENAPI_FILE } from '../../openapi/generate.ts'

t.test('openapi/openapi.json', async (t) => {
  const current = await renderOpenApi()

  t.test('is up to date with the routes (run `npm run openapi` when this fails)', async (t) => {
    t.equal(readFileSync(OPENAPI_FILE, 'utf8'), current)
  })

  t.test('is a valid OpenAPI 3.1 document', async (t) => {
    const validator = new Validator()
    const result = await validator.validate(JSON.parse(current))
    t.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
    t.equal(validator.version, '3.1')
  })

  t.test('declares the security schemes and documents every route', async (t) => {
    const doc = JSON.parse(current)
    t.same(Object.keys(doc.components.securitySchemes).sort(), ['appToken', 'clientBasic', 'developerJwt'])
    t.same(doc.servers.map((server: { url: string }) => server.url), ['http://localhost:3000'], 'servers from BASE_URL')
    const ids = new Set<string>()
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      t.notOk(path.length > 1 && path.endsWith('/'), `${path}: one path form, without a trailing slash`)
      for (const [method, operation] of Object.entries(operations)) {
        if (method === 'servers') continue
        t.match(operation.operationId, /^[a-z][A-Za-z]+$/, `${method.toUpperCase()} ${path} has a camelCase operationId`)
        t.notOk(ids.has(operation.operationId), `${operation.operationId} is unique`)
        ids.add(operation.operationId)
        t.ok(Array.isArray(operation.security), `${method.toUpperCase()} ${path} declares its security ([] when public)`)
        t.ok(operation.summary, `${method.toUpperCase()} ${path} has a summary`)
        t.ok(operation.description, `${method.toUpperCase()} ${path} has a description`)
        t.ok(operation.responses?.['400'], `${method.toUpperCase()} ${path} documents the 400 any request can get`)
        t.ok(operation.tags?.length > 0, `${method.toUpperCase()} ${path} has a tag`)
        t.ok(Object.keys(operation.responses ?? {}).some((code) => code.startsWith('2')), `${method.toUpperCase()} ${path} documents its success`)
      }
    }
  })

  t.test('documents the storefront API on the storefront origin', async (t) => {
    const doc = JSON.parse(current)
    const store = Object.keys(doc.paths).filter((path) => path.startsWith('/store/'))
    t.ok(store.length > 0)
    for (const path of store) t.same(doc.paths[path].servers?.map((server: { url: string }) => server.url), ['http://localhost:3001', 'http://{store}.localhost:3001'], path)
    for (const path of Object.keys(doc.paths).filter((p) => !p.startsWith('/store/'))) t.notOk(doc.paths[path].servers, `${path}: the API server`)
  })

  t.test('says what a larger limit does instead of calling it invalid', async (t) => {
    const doc = JSON.parse(current)
    const limits = Object.values<Record<string, any>>(doc.paths).flatMap((item) => Object.values<any>(item))
      .flatMap((op) => (op.parameters ?? []).filter((p: { name: string, in: string }) => p.in === 'query' && p.name === 'limit'))
    t.ok(limits.length >= 7)
    for (const limit of limits) {
      t.notOk('maximum' in limit.schema)
      t.type(limit.schema['x-clamped-maximum'], 'number')
      t.match(limit.description ?? limit.schema.description, /clamped/)
    }
  })

  t.test('names every resource and body as a component schema', async (t) => {
    const schemas = Object.keys(JSON.parse(current).components.schemas)
    for (const name of ['App', 'AppListing', 'Installation', 'Product', 'Order', 'Review', 'ReviewStats', 'Business', 'Page', 'WebhookRegistration',
      'Delivery', 'HookCall', 'Manifest', 'ManifestBlock', 'ManifestEmbed', 'ManifestHook', 'ManifestAdminPage', 'ErrorBody', 'OAuthError',
      'CreateAppBody', 'CreateProductBody', 'GuestOrderBody', 'CreateWebhookBody', 'MediaUpload', 'Scope', 'EventName', 'AppCategory']) {
      t.ok(schemas.includes(name), name)
    }
    t.notOk(schemas.includes('Error'), 'no component shadows the global Error in generated code')
  })
})
