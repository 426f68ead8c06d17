import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Dispatcher } from 'undici'
import type { Db } from '../../server/db/client.ts'
import { decryptSecret } from '../../server/crypto.ts'
import type { Apps, AppRow } from '../apps/service.ts'
import type { CheckoutHooks } from '../checkout-hooks/index.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Installations } from '../installations/index.ts'
import type { WebhooksPort } from '../webhooks/index.ts'
import type { HookPoint } from '../apps/manifest/schemas.ts'
import type { CheckContext } from './context.ts'
import { fail, type Check } from './runner.ts'
import { PERMISSIONS } from '../../sdk/src/contract/staff.ts'
import { oauthChecks } from './checks/oauth.ts'
import { webhookChecks } from './checks/webhooks.ts'
import { hookChecks } from './checks/hooks.ts'
import { frameChecks } from './checks/frames.ts'
import { bridgeChecks } from './checks/bridge.ts'
import { scopeChecks } from './checks/scopes.ts'

/**
 * The checks of one app, in the order they run: the app's entry points first, then what the
 * sandbox installation is called with, its pages, the scopes it used, and the erasure last (an app
 * may forget the sandbox's data on it).
 */
export function planChecks (context: CheckContext): Array<Check<CheckContext>> {
  const [rejects, accepts, erasure] = webhookChecks(context).map(needsInstallation)
  return [
    ...oauthChecks(context), rejects, accepts, ...hookChecks(context).map(needsInstallation), ...frameChecks(context),
    ...bridgeChecks(context).map(needsInstallation), ...scopeChecks(context).map(needsInstallation), erasure
  ]
}

/** A check that calls the app as the sandbox store would: without a sandbox installation it fails, saying how to get one. */
function needsInstallation (check: Check<CheckContext>): Check<CheckContext> {
  return {
    ...check,
    run: async (context) => context.installed
      ? await check.run(context)
      : fail('The app is not installed on the developer\'s sandbox, so the platform could not call it as a store would',
        'Install the app on your sandbox (through its App URL, so that it receives the webhook secret) and run the checks again.')
  }
}

/** What the checks need from other capabilities: passed in, so no capability calls back into this one. */
export interface AppChecksDeps {
  db: Db
  log: FastifyBaseLogger
  fastify: Pick<FastifyInstance, 'origins' | 'outbound' | 'clock'>
  apps: Pick<Apps, 'activeExtensionsOf'>
  installations: Pick<Installations, 'activeFor' | 'testInstall' | 'sessionToken'>
  webhooks: Pick<WebhooksPort, 'registrationsOf'>
  checkoutHooks: Pick<CheckoutHooks, 'hooksOf' | 'call'>
  commerce: Pick<Commerce, 'getBusinessProfile'>
  encryptionKey: Buffer
  webhookTimeoutMs: number
  browserPath: string | null
  /** Replaces the checks of a run (tests of the runner's guarantees: a crashing check, a hanging one). */
  plan?: (context: CheckContext) => Array<Check<CheckContext>>
}

/** What a run's context takes from the service's state: its HTTP agent and the scope uses so far. */
export interface RunTools { dispatcher: Dispatcher, scopesExercised: (installationId: string) => Promise<string[]> }

/**
 * The sandbox's installation of the app, installed for a developer's run when there is none (DESIGN §18);
 * a submission's run installs nothing (an approval would turn that install into a live one).
 */
async function sandboxInstallation ({ installations }: AppChecksDeps, app: AppRow, businessId: string, install: boolean) {
  const existing = await installations.activeFor(app.id, businessId)
  if (existing !== null || !install) return existing
  // the developer's test install, as the portal's "Install on my sandbox" makes it
  return (await installations.testInstall(app.developerId, app.id, businessId)).installation
}

export async function contextFor (
  deps: AppChecksDeps, run: RunTools, app: AppRow, businessId: string, userId: string, install: boolean
): Promise<CheckContext> {
  const { fastify, apps, installations, webhooks, checkoutHooks, commerce } = deps
  const { clock } = fastify
  const installation = await sandboxInstallation(deps, app, businessId, install)
  const [business, extensions, hooks] = await Promise.all([
    commerce.getBusinessProfile(businessId),
    apps.activeExtensionsOf([app.id], ['block', 'embed', 'hook', 'admin_page']),
    checkoutHooks.hooksOf(businessId)
  ])
  const of = <T>(kind: string) => extensions.filter((e) => e.kind === kind).map((e) => e.definition as T)
  const activeHooks = new Map([...hooks.entries()]
    .flatMap(([point, list]) => list.filter((h) => h.installationId === installation?.id).map((h) => [point, h] as const)))
  const installationId = installation?.id ?? ''
  const adminOrigin = new URL(fastify.origins.adminUrl).origin
  return {
    app,
    extensions: { blocks: of('block'), embeds: of('embed'), hooks: of('hook'), adminPages: of('admin_page') },
    installed: installation !== null,
    installation: {
      id: installationId, businessId, grantedScopes: installation?.grantedScopes ?? [], installedAt: installation?.installedAt ?? clock.now(),
      webhookSecret: installation === null ? '' : decryptSecret(installation.webhookSecretEncrypted, deps.encryptionKey)
    },
    business: { id: business.id, slug: business.slug, name: business.name, locale: business.locale },
    adminOrigin,
    storefrontOrigin: new URL(fastify.origins.storefrontOrigin(business.slug)).origin,
    policy: fastify.outbound,
    clock,
    dispatcher: run.dispatcher,
    webhookTimeoutMs: deps.webhookTimeoutMs,
    browserPath: deps.browserPath,
    activeHooks,
    callHook: async (hook, id, point: HookPoint, data) => await checkoutHooks.call(hook, id, point, data),
    sessionToken: async () => (await installations.sessionToken({ businessId, installationId, userId, role: 'OWNER', permissions: PERMISSIONS, issuer: adminOrigin })).sessionToken,
    scopesExercised: async () => await run.scopesExercised(installationId),
    subscribedEvents: async () => (await webhooks.registrationsOf(installationId)).filter((w) => w.isActive).flatMap((w) => w.events),
    memo: new Map()
  }
}
