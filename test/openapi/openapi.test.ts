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
        t.match(operation.operationId, /^[a-z][A-Za-z]+$/, `${method.toUpperCase()} ${path} has a camelCase operationId`)
        t.notOk(ids.has(operation.operationId), `${operation.operationId} is unique`)
        ids.add(operation.operationId)
        t.ok(Array.isArray(operation.security), `${method.toUpperCase()} ${path} declares its security ([] when public)`)
        t.ok(operation.summary, `${method.toUpperCase()} ${path} has a summary`)
        t.ok(operation.tags?.length > 0, `${method.toUpperCase()} ${path} has a tag`)
        t.ok(Object.keys(operation.responses ?? {}).some((code) => code.startsWith('2')), `${method.toUpperCase()} ${path} documents its success`)
      }
    }
  })

  t.test('names every resource and body as a component schema', async (t) => {
    const schemas = Object.keys(JSON.parse(current).components.schemas)
    for (const name of ['App', 'AppListing', 'Installation', 'Product', 'Order', 'Review', 'ReviewStats', 'Business', 'Page', 'WebhookRegistration',
      'Delivery', 'HookCall', 'Manifest', 'ManifestBlock', 'ManifestEmbed', 'ManifestHook', 'ManifestAdminPage', 'Error', 'OAuthError',
      'CreateAppBody', 'CreateProductBody', 'GuestOrderBody', 'CreateWebhookBody', 'MediaUpload', 'Scope', 'EventName', 'AppCategory']) {
      t.ok(schemas.includes(name), name)
    }
  })
})
