import { useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { ManifestResult, SyncItem } from '../../lib/types.ts'
import { ErrorMessage, Notice } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import styles from './style.module.css'

export function ManifestSection ({ app, reload }: SectionProps) {
  const { api } = useSession()
  const action = useAction()
  const [text, setText] = useState(() => JSON.stringify(app.manifest, null, 2))
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
    if (!answer.dryRun) reload()
  }

  return (
    <>
      <h2>Manifest</h2>
      <p class='muted'>Blocks, embeds, hooks, admin pages and the app's settingsSchema. On save, new keys are created, known keys updated and missing keys deactivated (merchant data is kept).</p>
      <label>Manifest JSON
        <textarea
          class={styles.editor} value={text} spellcheck={false}
          onInput={(e) => { setText((e.currentTarget as HTMLTextAreaElement).value); setResult(null) }}
        />
      </label>
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
