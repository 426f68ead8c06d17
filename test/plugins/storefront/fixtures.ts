import type { App } from '../../../server/app.ts'
import { createApp, oauthInstall, publishApp, registerUser, type Installed, type Session } from '../../helper.ts'

export interface InstalledApp { appId: string, developer: Session, installed: Installed, setManifest: (manifest: Record<string, unknown>) => Promise<void> }

/** A published app with this manifest, installed on the merchant's business through OAuth. */
export async function installApp (app: App, merchant: Session, manifest: Record<string, unknown>, developer?: Session): Promise<InstalledApp> {
  const owner = developer ?? await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, owner, { scopes: ['read_business'] })
  const setManifest = async (next: Record<string, unknown>) => {
    const response = await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: owner.auth, payload: { manifest: next } })
    if (response.statusCode !== 200) throw new Error(`manifest failed: ${response.statusCode} ${response.body}`)
  }
  await setManifest(manifest)
  await publishApp(app, owner, created.id)
  const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
  return { appId: created.id, developer: owner, installed, setManifest }
}

export const heroBlock = (renderUrl = 'https://blocks.example.com/hero') => ({
  blockType: 'hero',
  name: 'Hero banner',
  renderUrl,
  settingsSchema: { type: 'object', properties: { headline: { type: 'string', maxLength: 80 }, color: { type: 'string', format: 'color' } }, additionalProperties: false },
  defaultConfig: { headline: 'Welcome', color: '#336699' }
})

export const faqBlock = (renderUrl = 'https://faq.example.org/block') => ({ blockType: 'faq', name: 'FAQ', renderUrl })

export const chatWidget = (renderUrl = 'https://chat.example.net/widget') => ({
  embedType: 'chat', name: 'Chat', kind: 'FLOATING_WIDGET', position: 'bottom_right', renderUrl,
  settingsSchema: { type: 'object', properties: { greeting: { type: 'string' } }, additionalProperties: false },
  defaultConfig: { greeting: 'Hi!' }
})

export const analyticsScript = (scriptUrl = 'https://cdn.analytics.example/tag.js', position = 'head') => ({
  embedType: 'analytics', name: 'Analytics', kind: 'GLOBAL_SCRIPT', position, scriptUrl,
  settingsSchema: { type: 'object', properties: { siteId: { type: 'string' } }, additionalProperties: false },
  defaultConfig: { siteId: 'default' }
})

/** A page with this title; `home` exists from the start (every business gets one), so it is renamed instead. */
export async function createPage (app: App, merchant: Session, slug: string, title: string, isPublished = true) {
  const response = slug === 'home'
    ? await app.inject({ method: 'PATCH', url: '/merchant/pages/home', headers: merchant.auth, payload: { title, isPublished } })
    : await app.inject({ method: 'POST', url: '/merchant/pages', headers: merchant.auth, payload: { slug, title, isPublished } })
  if (response.statusCode !== (slug === 'home' ? 200 : 201)) throw new Error(`create page failed: ${response.statusCode} ${response.body}`)
  return response.json()
}

export async function putBlocks (app: App, merchant: Session, slug: string, blocks: unknown[]) {
  return await app.inject({ method: 'PUT', url: `/merchant/pages/${slug}/blocks`, headers: merchant.auth, payload: { blocks } })
}

export async function putEmbeds (app: App, merchant: Session, installationId: string, embeds: Record<string, unknown>) {
  return await app.inject({ method: 'PUT', url: `/merchant/installations/${installationId}/embeds`, headers: merchant.auth, payload: { embeds } })
}

export async function businessSlug (app: App, merchant: Session): Promise<string> {
  return (await app.inject({ url: '/merchant/business', headers: merchant.auth })).json().slug
}
