import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorResponses } from '../../server/schemas.ts'
import { ScopeValue } from '../../sdk/src/contract/index.ts'
import { badRequest } from './errors.ts'
import { AppIdParams } from '../apps/schemas.ts'
import type { Installations, InstallationsNeeds } from './service.ts'

const security = [{ developerJwt: [] }]
const tags = ['portal']
const RECENT_DELIVERIES = 10

const TestInstallSchema = Type.Object({
  installationId: Type.String(),
  accessToken: Type.String({ examples: ['fbat_test_…'] }),
  webhookSecret: Type.String({ examples: ['whsec_test_…'] }),
  businessId: Type.String({ description: 'The sandbox business' }),
  isTestInstall: Type.Literal(true)
})
const TestStatusSchema = Type.Object({
  installed: Type.Boolean(),
  installationId: Type.Union([Type.String(), Type.Null()]),
  businessId: Type.String({ description: 'The sandbox business' }),
  installUrl: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
    description: 'The App URL with the sandbox (businessId, business), where the portal\'s Test install goes so the app starts OAuth and receives its credentials; null when the app has no App URL (POST test-install then shows them once)'
  }),
  isTestInstall: Type.Union([Type.Boolean(), Type.Null()]),
  needsReConsent: Type.Union([Type.Boolean(), Type.Null()]),
  grantedScopes: Type.Array(ScopeValue),
  installedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  webhooks: Type.Array(Type.Object({ id: Type.String(), url: Type.String(), events: Type.Array(Type.String()), isActive: Type.Boolean() })),
  recentDeliveries: Type.Array(Type.Object({
    id: Type.String(), event: Type.String(), status: Type.String(), attempts: Type.Integer(),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()]), createdAt: Type.String({ format: 'date-time' })
  }))
})

/** The App URL with the business it installs on, as the marketplace's Install button sends it (DESIGN §15). */
function installEntry (appUrl: string, businessId: string, slug: string): string {
  const url = new URL(appUrl)
  url.searchParams.set('businessId', businessId)
  url.searchParams.set('business', slug)
  return url.toString()
}

/**
 * Test installs on the developer's sandbox business, without review. The portal sends an app with an
 * App URL through it (installUrl, DESIGN §22) so the app receives its credentials; POST test-install
 * (credentials in the answer) stays for apps without one, the CLI and scripts.
 */
const testInstallRoutes: FastifyPluginAsyncTypebox<Pick<InstallationsNeeds, 'apps' | 'commerce' | 'webhooks' | 'guards'> & { installations: Installations }> = async (fastify, { apps, commerce, webhooks, guards, installations }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))
  const sandboxOf = (businessId: string | null): string => {
    if (businessId === null) throw badRequest('sandbox_missing', 'Your account has no sandbox business')
    return businessId
  }

  fastify.post('/:appId/test-install', {
    schema: {
      tags, security, operationId: 'testInstallApp', summary: 'Install the app on my sandbox business',
      description: 'Replaces an earlier test install (its token is revoked). Works in any app status. The credentials come in this answer; an app with an App URL is test-installed through it instead (GET test-status\'s installUrl), so the app receives them.',
      params: AppIdParams, response: { 201: TestInstallSchema, ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request, reply) => {
    const businessId = sandboxOf(request.user.businessId)
    const issued = await installations.testInstall(request.user.sub, request.params.appId, businessId)
    request.log.info({ installationId: issued.installation.id }, 'test install')
    return reply.code(201).send({
      installationId: issued.installation.id, accessToken: issued.accessToken, webhookSecret: issued.webhookSecret, businessId, isTestInstall: true as const
    })
  })

  fastify.get('/:appId/test-status', {
    schema: { tags, security, operationId: 'getTestStatus', summary: 'The test install on my sandbox, its webhooks and recent deliveries', params: AppIdParams, response: { 200: TestStatusSchema, ...errorResponses(400, 401, 403, 404) } }
  }, async (request) => {
    const businessId = sandboxOf(request.user.businessId)
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const installation = await installations.activeFor(app.id, businessId)
    const installUrl = app.appUrl === null ? null : installEntry(app.appUrl, businessId, (await commerce.findBusiness(businessId))?.slug ?? '')
    if (installation === null) {
      return {
        installed: false, installationId: null, businessId, installUrl, isTestInstall: null, needsReConsent: null, grantedScopes: [], installedAt: null,
        webhooks: [], recentDeliveries: []
      }
    }
    const [registrations, deliveries] = await Promise.all([
      webhooks.registrationsOf(installation.id),
      webhooks.recentDeliveriesOf(installation.id, RECENT_DELIVERIES)
    ])
    return {
      installed: true,
      installationId: installation.id,
      businessId,
      installUrl,
      isTestInstall: installation.isTestInstall,
      needsReConsent: installation.needsReConsent,
      grantedScopes: installation.grantedScopes,
      installedAt: installation.installedAt.toISOString(),
      webhooks: registrations.map((w) => ({ id: w.id, url: w.url, events: w.events, isActive: w.isActive })),
      recentDeliveries: deliveries.map((d) => ({
        id: d.id, event: d.event, status: d.status, attempts: d.attempts, lastStatusCode: d.lastStatusCode,
        createdAt: d.createdAt.toISOString()
      }))
    }
  })

  fastify.post('/:appId/test-uninstall', {
    schema: {
      tags, security, operationId: 'testUninstallApp', summary: 'Remove the test install', description: 'Same effects as a merchant uninstall. 404 when there is none.',
      params: AppIdParams, response: {
        200: Type.Object({ uninstalled: Type.Literal(true), installationId: Type.String() }), ...errorResponses(400,
          401, 403, 404)
      }
    }
  }, async (request) => {
    const businessId = sandboxOf(request.user.businessId)
    const installationId = await installations.testUninstall(request.user.sub, request.params.appId, businessId)
    return { uninstalled: true as const, installationId }
  })
}

export default testInstallRoutes
