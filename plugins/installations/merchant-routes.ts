import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { IdParams, errorResponses } from '../../server/schemas.ts'
import { ScopeValue } from '../../sdk/src/contract/index.ts'
import { publicInstallation } from './service.ts'
import { EmbedsBodySchema, EmbedsResponseSchema } from './schemas.ts'

const security = [{ developerJwt: [] }]
const tags = ['installations']

const InstallationSchema = Type.Object({
  installationId: Type.String(), appId: Type.String(), businessId: Type.String(), isTestInstall: Type.Boolean(), needsReConsent: Type.Boolean(),
  grantedScopes: Type.Array(ScopeValue), pendingScopes: Type.Array(ScopeValue, { description: 'Added scopes waiting for the merchant’s approval' }),
  installedAt: Type.String({ format: 'date-time' }), uninstalledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
}, { title: 'Installation' })
const AdminPageLink = Type.Object({ pageId: Type.String(), title: Type.String(), iconName: Type.Union([Type.String(), Type.Null()]), renderUrl: Type.String() })
const ListedInstallation = Type.Intersect([InstallationSchema, Type.Object({
  app: Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String(), iconUrl: Type.Union([Type.String(), Type.Null()]) }),
  hasSettings: Type.Boolean({ description: 'The app declares a settingsSchema' }),
  adminPages: Type.Array(AdminPageLink, { description: 'Active admin pages: sidebar items of the admin panel' })
})])
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
const Settings = Type.Record(Type.String(), Type.Unknown())
const SettingsResponse = Type.Object({ settings: Settings, settingsSchema: Type.Union([Settings, Type.Null()]) })

/** /merchant/installations: the merchant's installed apps, on their own business only. */
const merchantInstallationRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.requireRole('MERCHANT'))
  const businessOf = (request: { user: { businessId: string | null } }) => request.user.businessId as string

  fastify.post('/:id/session-token', {
    schema: {
      tags, security, operationId: 'createAdminPageSessionToken',
      summary: "A session token for the app's admin page (service:init, service:session-token)",
      description: 'A JWT (HS256, keyed with the installation’s webhook secret) with iss = the admin origin, aud = the app’s client id, sub = the user, ' +
        'businessId, installationId, iat, exp (5 minutes) and jti. The app verifies it with the SDK’s verifySessionToken.',
      params: Params,
      response: { 200: Type.Object({ sessionToken: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => await fastify.installations.sessionToken({
    businessId: businessOf(request), installationId: request.params.id, userId: request.user.sub, issuer: new URL(fastify.origins.adminUrl).origin
  }))

  fastify.get('/', {
    schema: { tags, security, operationId: 'listInstallations', summary: 'Installed apps', response: { 200: Type.Object({ data: Type.Array(ListedInstallation) }), ...errorResponses(401, 403) } }
  }, async (request) => {
    const rows = await fastify.installations.listForBusiness(businessOf(request))
    const pagesByApp = await fastify.apps.adminPagesOf(rows.map(({ app }) => app.id))
    return {
      data: rows.map(({ installation, app }) => ({
        ...publicInstallation(installation),
        app: { id: app.id, name: app.name, slug: app.slug, iconUrl: app.iconUrl },
        hasSettings: typeof app.manifest?.settingsSchema === 'object' && app.manifest.settingsSchema !== null,
        adminPages: pagesByApp.get(app.id) ?? []
      }))
    }
  })

  fastify.delete('/:id', {
    schema: {
      tags, security, operationId: 'uninstallApp', summary: 'Uninstall',
      description: 'Revokes the token at once, deactivates the installation’s webhooks, removes its blocks from pages, stops its embeds and hooks, and schedules business.data_erasure after 48 hours.',
      params: Params, response: { 200: Type.Object({ uninstalled: Type.Literal(true), installationId: Type.String() }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    await fastify.db.transaction(async (tx) => {
      const installation = await fastify.installations.getForBusiness(tx, businessOf(request), request.params.id, true)
      await fastify.installations.uninstall(tx, installation)
    })
    request.log.info({ installationId: request.params.id }, 'app uninstalled')
    return { uninstalled: true as const, installationId: request.params.id }
  })

  fastify.post('/:id/consent', {
    schema: { tags, security, operationId: 'approveAddedScopes', summary: 'Approve the scopes the app added', params: Params, response: { 200: InstallationSchema, ...errorResponses(401, 403, 404) } }
  }, async (request) => publicInstallation(await fastify.installations.consent(businessOf(request), request.params.id)))

  fastify.get('/:id/settings', {
    schema: { tags, security, operationId: 'getInstallationSettings', summary: 'App settings of this installation, with the schema they follow', params: Params, response: { 200: SettingsResponse, ...errorResponses(401, 403, 404) } }
  }, async (request) => await fastify.installations.settingsOf(businessOf(request), request.params.id))

  fastify.put('/:id/settings', {
    schema: {
      tags, security, operationId: 'putInstallationSettings', summary: 'Replace the app settings', description: "Validated against the manifest's top-level settingsSchema; 400 lists every problem.",
      params: Params, body: Type.Object({ settings: Settings }, { additionalProperties: false }), response: {
        200: SettingsResponse,
        ...errorResponses(400, 401, 403, 404)
      }
    }
  }, async (request) => await fastify.installations.putSettings(businessOf(request), request.params.id, request.body.settings))

  fastify.get('/:id/embeds', {
    schema: {
      tags, security,
      operationId: 'getInstallationEmbeds', summary: 'The app’s embeds and how this installation configures them',
      params: IdParams,
      response: { 200: EmbedsResponseSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await fastify.installations.getEmbeds(businessOf(request), request.params.id))

  fastify.put('/:id/embeds', {
    schema: {
      tags, security,
      operationId: 'putInstallationEmbeds', summary: 'Enable, disable and configure embeds',
      description: 'Keyed by embedType; settings are validated against each embed’s settingsSchema. An unknown or inactive embedType is a 400; embeds not named keep their configuration.',
      params: IdParams,
      body: EmbedsBodySchema,
      response: { 200: EmbedsResponseSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await fastify.installations.putEmbeds(businessOf(request), request.params.id, request.body))
}

export default merchantInstallationRoutes
