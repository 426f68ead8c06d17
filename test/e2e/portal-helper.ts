import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import type { Test } from 'tap'
import { build, createApp, listen, registerUser } from '../helper.ts'

/** A developer with one app (Booster), on a server of its own: what the portal's browser tests start from. */
export interface PortalSetup {
  base: string
  appId: string
  /** The login answer, put into a browser context as the admin's stored session. */
  session: { token: string, user: unknown }
}

export async function developerWithApp (t: Test): Promise<PortalSetup> {
  const app = await build(t)
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { name: 'Booster', redirectUrl: 'https://booster.example.com/oauth/callback', webhookUrl: 'https://booster.example.com/webhooks' })
  const login = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: developer.email, password: 'correct-horse' } })).json()
  return { base, appId: created.id, session: { token: login.token, user: login.user } }
}

/** A browser context signed in as the developer (its session in local storage before any page runs), closed on teardown. */
export async function developerContext (t: Test, browser: Browser, setup: PortalSetup, viewport: { width: number, height: number }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport })
  t.teardown(() => context.close())
  await context.addInitScript((value) => { localStorage.setItem('app-platform.session', value) }, JSON.stringify(setup.session))
  return context
}

/** Opens the app's Manifest tab and waits for the CodeMirror editor; returns its editable region. */
export async function openManifestEditor (page: Page, setup: PortalSetup): Promise<Locator> {
  await page.goto(`${setup.base}/portal/apps/${setup.appId}/settings`)
  return await manifestEditorOnTab(page)
}

/** On the app's settings page already: the Manifest tab, its editor once loaded. */
export async function manifestEditorOnTab (page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Manifest' }).click()
  await page.locator('[data-testid="manifest-editor"][data-state="ready"]').waitFor()
  return page.getByRole('textbox', { name: 'Manifest JSON' })
}
