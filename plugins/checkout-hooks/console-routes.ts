import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../server/schemas.ts'
import { LogPage } from '../../sdk/src/contract/console.ts'
import { notFound } from './errors.ts'
import { AppIdParams } from '../apps/schemas.ts'
import { AppHookCallParams, HookCallDetailSchema, HookCallQuery, HookCallSchema } from './schemas.ts'
import type { CheckoutHooks, CheckoutHooksNeeds } from './service.ts'

const tags = ['portal']
const security = [{ developerJwt: [] }]

/**
 * The developer console's hook call log for one app (DESIGN §16 "Console routes"): the developer's own
 * app only (another developer's app is 404), across all its installations, test installs included.
 */
const hookCallConsoleRoutes: FastifyPluginAsyncTypebox<Pick<CheckoutHooksNeeds, 'apps' | 'commerce' | 'guards'> & { checkoutHooks: CheckoutHooks }> = async (fastify, { apps, commerce, guards, checkoutHooks }) => {
  fastify.addHook('onRequest', guards.requireRole('DEVELOPER'))

  fastify.get('/:appId/hook-calls', {
    schema: {
      tags, security, operationId: 'listAppHookCalls', summary: 'Hook call log of my app', description: 'Newest first; filter by hook point and outcome. `total` counts at most 10 000 calls (a bigger log says 10 000).',
      params: AppIdParams, querystring: HookCallQuery, response: { 200: LogPage(HookCallSchema), ...errorResponses(400, 401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    return await checkoutHooks.callLog(app.id, request.query)
  })

  fastify.get('/:appId/hook-calls/:id', {
    schema: {
      tags, security, operationId: 'getAppHookCall', summary: 'A hook call of my app',
      description: 'The envelope sent, the answer as received (first 4 KB), why it was refused and what the checkout did about it (the failure policy applied).',
      params: AppHookCallParams, response: { 200: HookCallDetailSchema, ...errorResponses(401, 403, 404) }
    }
  }, async (request) => {
    const app = await apps.ownedApp(request.user.sub, request.params.appId)
    const call = await checkoutHooks.callOfApp(app.id, request.params.id)
    if (call === null) throw notFound('hook_call_not_found', 'Hook call')
    const names = await commerce.businessNamesOf([call.businessId])
    return { ...call, storeName: names.get(call.businessId) ?? null }
  })
}

export default hookCallConsoleRoutes
