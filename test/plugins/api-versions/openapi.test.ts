import t from 'tap'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { Validator } from '@seriousme/openapi-schema-validator'
import { renderOpenApiDocuments, versionFile } from '../../../openapi/generate.ts'
import { versionedDocument } from '../../../plugins/api-versions/index.ts'
import { API_VERSIONS } from '../../../sdk/src/contract/api-versions.ts'
import { build } from '../../helper.ts'

type Json = Record<string, any>

/** Every example of a document: each component's `examples`, each media object's `example`, with the schema it illustrates. */
function examplesOf (doc: Json): Array<{ where: string, schema: Json, example: unknown }> {
  const found: Array<{ where: string, schema: Json, example: unknown }> = []
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) {
    for (const [index, example] of (schema.examples ?? []).entries()) found.push({ where: `components.schemas.${name}.examples[${index as number}]`, schema: { $ref: `doc#/components/schemas/${name}` }, example })
  }
  const visit = (node: unknown, where: string): void => {
    if (typeof node !== 'object' || node === null) return
    const object = node as Json
    if ('example' in object && typeof object.schema === 'object') found.push({ where, schema: rebase(object.schema), example: object.example })
    for (const [key, value] of Object.entries(object)) visit(value, `${where}.${key}`)
  }
  visit(doc.paths, 'paths')
  return found
}
/** A schema of the document as one Ajv compiles against the document's components (registered as `doc`). */
const rebase = (schema: Json): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json

t.test('an OpenAPI document per API version', async (t) => {
  const { main, versions } = await renderOpenApiDocuments()

  for (const version of API_VERSIONS) {
    t.test(`${version}: committed, valid OpenAPI 3.1, and its examples valid against its own schemas`, async (t) => {
      t.equal(readFileSync(versionFile(version), 'utf8'), versions[version], 'up to date (run `npm run openapi` when this fails)')
      const doc = JSON.parse(versions[version]) as Json
      const result = await new Validator().validate(doc)
      t.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
      t.equal(doc.info.version, version)
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      addFormats.default(ajv)
      ajv.addSchema({ $id: 'doc', components: doc.components })
      const examples = examplesOf(doc)
      t.ok(examples.some((e) => e.where.includes('/app-api/orders')), 'the App API\'s order examples are among them')
      for (const { where, schema, example } of examples) {
        const validate = ajv.compile(schema)
        t.ok(validate(example), `${where}: ${JSON.stringify(validate.errors?.slice(0, 2))}`)
      }
    })
  }

  t.test('2026-12 documents money objects on the App API only, as the routes answer; 2026-11 the merchant\'s shapes', async (t) => {
    const base = JSON.parse(main) as Json
    const older = JSON.parse(versions['2026-11']) as Json
    const newer = JSON.parse(versions['2026-12']) as Json
    // the App API's routes speak the newest version: the routes' document is 2026-12's, but for the version it names
    t.same(newer.components, base.components, '2026-12 is the routes\' shapes')
    t.same(newer.paths['/app-api/orders/{id}'].get.responses, base.paths['/app-api/orders/{id}'].get.responses, 'the App API as the routes answer')
    const { 'Order_2026-12': _order, 'OrderItem_2026-12': _item, 'Product_2026-12': _product, ...merchant } = base.components.schemas
    t.same(older.components.schemas, merchant, '2026-11: the merchant\'s (unversioned) shapes, without the newest version\'s own')
    t.equal(older.paths['/app-api/orders/{id}'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Order')
    t.type(older.paths['/app-api/orders/{id}'].get.responses['200'].content['application/json'].example.amount, 'number', 'its example downgraded')
    const money = newer.components.schemas['Order_2026-12'].properties.amount
    t.match(money, { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'integer' }, currency: { type: 'string' } } })
    t.match(newer.components.schemas['Product_2026-12'].properties.price, { type: 'object' })
    t.equal(newer.components.schemas.Order.properties.amount.type, 'integer', 'the merchant\'s Order stays')
    const getOrder = newer.paths['/app-api/orders/{id}'].get
    t.equal(getOrder.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Order_2026-12')
    t.match(getOrder.responses['200'].content['application/json'].example.amount, { amount: Number, currency: 'USD' })
    t.equal(newer.paths['/merchant/orders/{id}'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Order')
    for (const doc of [older, newer]) {
      t.match(getOrder.parameters.find((p: Json) => p.in === 'header'), { name: 'App-Api-Version', required: false, schema: { enum: [...API_VERSIONS] } })
      t.notOk(doc.paths['/merchant/orders/{id}'].get.parameters?.some((p: Json) => p.name === 'App-Api-Version'), 'not on unversioned routes')
    }
  })

  t.test('GET /openapi/{version}.json serves them; an unknown version is a 404 with its code', async (t) => {
    const app = await build(t)
    for (const version of API_VERSIONS) {
      const response = await app.inject({ method: 'GET', url: `/openapi/${version}.json` })
      t.equal(response.statusCode, 200)
      t.same(response.json(), JSON.parse(JSON.stringify(versionedDocument(app.swagger() as Json, version))))
    }
    for (const bad of ['/openapi/2031-01.json', '/openapi/2026-12', '/openapi/latest.json']) {
      const response = await app.inject({ method: 'GET', url: bad })
      t.equal(response.statusCode, 404, bad)
      t.equal(response.json().code, 'api_version_not_found')
    }
  })
})
