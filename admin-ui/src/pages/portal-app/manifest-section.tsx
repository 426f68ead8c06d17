import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import { useSessionDraft } from '../../lib/use-session-draft.ts'
import type { ManifestResult, SyncItem } from '../../lib/types.ts'
import { ErrorMessage, Notice } from '../../components/states/index.tsx'
import { ManifestEditor } from '../../components/manifest-editor/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

/** The API reference's manifest operation, with the Manifest schema and its parts (blocks, embeds, hooks, adminPages). */
export const MANIFEST_DOCS = '/docs#/manifest/putManifest'

/**
 * A new app's first manifest: plain JSON (a manifest with comments would not be JSON), explained by its own
 * `description` fields, which the merchant sees in the block picker and the embeds list until the developer
 * rewrites them. Its URLs are on the app's own origin.
 */
export function manifestTemplate (app: Pick<SectionProps['app'], 'appUrl' | 'redirectUrl'>): string {
  let origin = 'https://app.example.com'
  try { origin = new URL(app.appUrl ?? app.redirectUrl).origin } catch {}
  return JSON.stringify({
    blocks: [{
      blockType: 'hero',
      name: 'Hero banner',
      description: 'A block merchants add to their pages in the theme editor. Its renderUrl is framed in the store; settingsSchema becomes its settings form, defaultConfig its first values.',
      renderUrl: `${origin}/blocks/hero`,
      settingsSchema: { type: 'object', properties: { headline: { type: 'string', title: 'Headline', maxLength: 80 } }, additionalProperties: false },
      defaultConfig: { headline: 'Welcome' }
    }],
    embeds: [{
      embedType: 'chat',
      name: 'Chat bubble',
      description: 'An embed merchants switch on for the whole store: a FLOATING_WIDGET frames renderUrl in a corner, a GLOBAL_SCRIPT loads scriptUrl on every page.',
      kind: 'FLOATING_WIDGET',
      position: 'bottom_right',
      renderUrl: `${origin}/embeds/chat`
    }],
    hooks: [],
    adminPages: [{ pageId: 'overview', title: 'Overview', renderUrl: `${origin}/admin/overview` }]
  }, null, 2)
}

const isEmpty = (manifest: Record<string, unknown>) => Object.keys(manifest).length === 0

export function ManifestSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  // an app without a manifest starts from the template (Preview shows what it would create; nothing is saved until Save)
  const draft = useSessionDraft(`manifest.${app.id}`, isEmpty(app.manifest) ? manifestTemplate(app) : JSON.stringify(app.manifest, null, 2))
  const text = draft.text
  const [parseError, setParseError] = useState<string | null>(null)
  const [result, setResult] = useState<ManifestResult | null>(null)

  async function send (dryRun: boolean) {
    setResult(null)
    let manifest: unknown
    try {
      manifest = JSON.parse(text)
    } catch (e) {
      setParseError(`The manifest is not valid JSON: ${(e as Error).message}`)
      return
    }
    setParseError(null)
    const answer = await action.run(() => api.put<ManifestResult>(`/developer/apps/${app.id}/manifest${dryRun ? '?dryRun=true' : ''}`, { manifest }))
    if (answer === null) return
    setResult(answer)
    if (!answer.dryRun) {
      draft.reset(JSON.stringify(manifest, null, 2))
      reload()
    }
  }

  return (
    <>
      <h2>Manifest</h2>
      <p class='muted'>Blocks, embeds, hooks, admin pages and the app's settingsSchema. On save, new keys are created, known keys updated and missing keys deactivated (merchant data is kept).</p>
      {draft.restored && (
        <div class={styles.draft} data-testid='manifest-draft' role='status'>
          <span>Your unsaved draft from earlier in this tab; the saved manifest is unchanged.</span>
          <button type='button' class='secondary' onClick={() => { draft.reset(); setResult(null) }}>
            Discard draft
          </button>
        </div>
      )}
      {isEmpty(app.manifest) && !draft.restored && (
        <Notice>No manifest saved yet: this is a starting template. Change it to your app's extensions, then Preview and Save.</Notice>
      )}
      <div class='muted' id='manifest-help'>
        <p class={styles.help}>
          The editor checks the <a href={MANIFEST_DOCS} target='_blank' rel='noreferrer'>manifest reference</a> as you type: Ctrl+Space lists the keys a place allows, and errors are underlined (F8 goes to the next one).
          A hook's <code>url</code> is a path under the app's Webhook URL{app.webhookUrl !== null ? <> (<code>/rates</code> is called as <code>{`${app.webhookUrl.replace(/\/$/, '')}/rates`}</code>)</> : ' (set one in Settings first)'}.
        </p>
        <p class={styles.help}>Tab indents; to leave the editor with the keyboard, press Esc and then Tab.</p>
      </div>
      <span class={styles.editorLabel} id='manifest-label'>Manifest JSON</span>
      <ManifestEditor value={text} label='Manifest JSON' describedBy='manifest-help' onChange={(next) => { draft.edit(next); setResult(null) }} />
      <ErrorMessage message={parseError} />
      <ErrorMessage message={action.error} problems={action.problems} />
      {result !== null && (
        <div data-testid='manifest-result'>
          <Notice>{result.dryRun ? 'Preview: nothing was saved yet.' : 'Manifest saved and extensions synced.'}</Notice>
          <div class={styles.diff}>
            <SyncList title='Created' items={result.sync.created} />
            <SyncList title='Updated' items={result.sync.updated} reactivated={result.sync.reactivated} />
            <SyncList title='Deactivated' items={result.sync.deactivated} />
          </div>
        </div>
      )}
      <div class={styles.row}>
        <button type='button' class='secondary' disabled={action.busy} onClick={() => { void send(true) }}>Preview changes</button>
        <button type='button' disabled={action.busy} onClick={() => { void send(false) }}>Save manifest</button>
      </div>
    </>
  )
}

function SyncList ({ title, items, reactivated = [] }: { title: string, items: SyncItem[], reactivated?: SyncItem[] }) {
  const back = new Set(reactivated.map((r) => `${r.kind}:${r.key}`))
  return (
    <div>
      <h3>{title} ({items.length})</h3>
      {items.length === 0
        ? <p class='muted'>None</p>
        : <ul>{items.map((i) => <li key={`${i.kind}:${i.key}`}>{i.kind} <code>{i.key}</code>{back.has(`${i.kind}:${i.key}`) && <span class='muted'> (reactivated)</span>}</li>)}</ul>}
    </div>
  )
}
