import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { IdParams, errorResponses } from '../../server/schemas.ts'
import { InstallationListSchema, InstallationSchema } from '../../sdk/src/contract/index.ts'
import { publicInstallation, type Installations, type InstallationsNeeds } from './service.ts'
import { AvailableBlocksSchema, EmbedsBodySchema, EmbedsResponseSchema, PreviousSetupSchema } from './schemas.ts'

const security = [{ developerJwt: [] }]
const tags = ['installations']

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
const Settings = Type.Record(Type.String(), Type.Unknown())
const SettingsResponse = Type.Object({ settings: Settings, settingsSchema: Type.Union([Settings, Type.Null()]) })

/** /merchant/installations: the merchant's installed apps, on their own business only. */
const merchantInstallationRoutes: FastifyPluginAsyncTypebox<Pick<InstallationsNeeds, 'apps' | 'guards'> & { installations: Installations }> = async (fastify, { apps, guards, installations }) => {
  fastify.addHook('onRequest', guards.requireMerchant)
  const businessOf = (request: { user: { businessId: string | null } }) => request.user.businessId as string

  fastify.post('/:id/session-token', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'createAdminPageSessionToken',
      summary: "A session token for the app's admin page (service:init, service:session-token)",
      description: 'A JWT (HS256, keyed with the installation’s webhook secret) with iss = the admin origin, aud = the app’s client id, sub = the user, ' +
        'role (OWNER or STAFF) and permissions (the staff member’s, DESIGN §24), businessId, installationId, iat, exp (5 minutes) and jti. The app verifies it with the SDK’s verifySessionToken.',
      params: Params,
      response: { 200: Type.Object({ sessionToken: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => await installations.sessionToken({
    businessId: businessOf(request),
    installationId: request.params.id,
    userId: request.user.sub,
    role: request.user.businessRole ?? 'OWNER',
    permissions: request.user.permissions ?? [],
    issuer: new URL(fastify.origins.adminUrl).origin
  }))

  fastify.get('/', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'listInstallations', summary: 'Installed apps, and approved installs the app has not finished',
      description: 'Installed apps have status ACTIVE. An install the merchant approved whose code the app has not exchanged shows as PENDING while the code is valid (10 minutes), then as EXPIRED for a day.',
      response: { 200: InstallationListSchema, ...errorResponses(401, 403) }
    }
  }, async (request) => {
    const businessId = businessOf(request)
    const rows = await installations.listForBusiness(businessId)
    const [pagesByApp, unfinished, offered] = await Promise.all([
      apps.adminPagesOf(rows.map(({ app }) => app.id)),
      installations.unfinishedFor(businessId, rows.map(({ app }) => app.id)),
      installations.offeredSetups(businessId, rows.map(({ installation }) => installation))
    ])
    const listedApp = (app: { id: string, name: string, slug: string, iconUrl: string | null, appUrl: string | null }) =>
      ({ id: app.id, name: app.name, slug: app.slug, iconUrl: app.iconUrl, appUrl: app.appUrl })
    return {
      data: [
        ...rows.map(({ installation, app }) => ({
          ...publicInstallation(installation),
          status: 'ACTIVE' as const,
          app: listedApp(app),
          hasSettings: typeof app.manifest?.settingsSchema === 'object' && app.manifest.settingsSchema !== null,
          hasPreviousSetup: offered.has(installation.id),
          adminPages: pagesByApp.get(app.id) ?? []
        })),
        ...unfinished.map(({ consent, app }) => ({
          status: consent.expired ? 'EXPIRED' as const : 'PENDING' as const,
          installationId: null,
          appId: app.id,
          businessId,
          app: listedApp(app),
          requestedScopes: consent.scopes,
          consentedAt: consent.consentedAt.toISOString(),
          expiresAt: consent.expiresAt.toISOString()
        }))
      ]
    }
  })

  fastify.get('/blocks', {
    config: { permission: 'pages' },
    schema: {
      tags, security, operationId: 'listAvailableBlocks', summary: 'The blocks you can place on pages (the theme editor’s picker)',
      description: 'Every active block of your active installations, with name, description, icon and category.',
      response: { 200: AvailableBlocksSchema, ...errorResponses(401, 403) }
    }
  }, async (request) => ({ data: await installations.availableBlocks(businessOf(request)) }))

  fastify.delete('/:id', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'uninstallApp', summary: 'Uninstall',
      description: 'Revokes the token at once, deactivates the installation’s webhooks, removes its blocks from pages, stops its embeds and hooks, and schedules business.data_erasure after 48 hours.',
      params: Params, response: { 200: Type.Object({ uninstalled: Type.Literal(true), installationId: Type.String() }), ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    await installations.uninstallFromBusiness(businessOf(request), request.params.id)
    request.log.info({ installationId: request.params.id }, 'app uninstalled')
    return { uninstalled: true as const, installationId: request.params.id }
  })

  fastify.post('/:id/consent', {
    config: { permission: 'apps' },
    schema: { tags, security, operationId: 'approveAddedScopes', summary: 'Approve the scopes the app added', params: Params, response: { 200: InstallationSchema, ...errorResponses(401, 403, 404) } }
  }, async (request) => publicInstallation(await installations.consent(businessOf(request), request.params.id)))

  fastify.get('/:id/settings', {
    config: { permission: 'apps' },
    schema: { tags, security, operationId: 'getInstallationSettings', summary: 'App settings of this installation, with the schema they follow', params: Params, response: { 200: SettingsResponse, ...errorResponses(401, 403, 404) } }
  }, async (request) => await installations.settingsOf(businessOf(request), request.params.id))

  fastify.put('/:id/settings', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'putInstallationSettings', summary: 'Replace the app settings', description: "Validated against the manifest's top-level settingsSchema; 400 lists every problem.",
      params: Params, body: Type.Object({ settings: Settings }, { additionalProperties: false }), response: {
        200: SettingsResponse,
        ...errorResponses(400, 401, 403, 404)
      }
    }
  }, async (request) => await installations.putSettings(businessOf(request), request.params.id, request.body.settings))

  fastify.get('/:id/embeds', {
    config: { permission: 'apps' },
    schema: {
      tags, security,
      operationId: 'getInstallationEmbeds', summary: 'The app’s embeds and how this installation configures them',
      params: IdParams,
      response: { 200: EmbedsResponseSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await installations.getEmbeds(businessOf(request), request.params.id))

  fastify.put('/:id/embeds', {
    config: { permission: 'apps' },
    schema: {
      tags, security,
      operationId: 'putInstallationEmbeds', summary: 'Enable, disable and configure embeds',
      description: 'Keyed by embedType; settings are validated against each embed’s settingsSchema. An unknown or inactive embedType is a 400; embeds not named keep their configuration.',
      params: IdParams,
      body: EmbedsBodySchema,
      response: { 200: EmbedsResponseSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => await installations.putEmbeds(businessOf(request), request.params.id, request.body))

  fastify.get('/:id/previous-setup', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'getPreviousSetup', summary: 'What you had set up before uninstalling this app, and what of it can be restored',
      description: 'The setup recorded when the app was last uninstalled from your business (app settings, embeds, blocks and where they stood). ' +
        'While status is OFFERED, items say what a restore brings back and what it skips, and why (the app changed its definitions, a page is gone).',
      params: Params, response: { 200: PreviousSetupSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => await installations.previousSetupOf(businessOf(request), request.params.id))

  fastify.post('/:id/restore-setup', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'restorePreviousSetup', summary: 'Restore your previous setup of this app',
      description: 'In one transaction: app settings, embeds (on or off, with their settings) and blocks at their positions, where they still match the app’s ' +
        'current definitions; the rest is skipped and listed. Once only: a second restore, or one after a dismissal, is a 409 previous_setup_resolved.',
      params: Params, response: { 200: PreviousSetupSchema, ...errorResponses(401, 403, 404, 409) }
    }
  }, async (request) => {
    const restored = await installations.restoreSetup(businessOf(request), request.params.id)
    request.log.info({ installationId: request.params.id, from: restored.previousInstallationId }, 'previous setup restored')
    return restored
  })

  fastify.post('/:id/dismiss-previous-setup', {
    config: { permission: 'apps' },
    schema: {
      tags, security, operationId: 'dismissPreviousSetup', summary: 'Decline to restore your previous setup of this app',
      description: 'The offer goes away; restoring afterwards is a 409 previous_setup_resolved.',
      params: Params, response: { 200: PreviousSetupSchema, ...errorResponses(401, 403, 404, 409) }
    }
  }, async (request) => await installations.dismissPreviousSetup(businessOf(request), request.params.id))
}

export default merchantInstallationRoutes
