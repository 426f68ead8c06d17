import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import Sortable from 'sortablejs'
import { BLOCK_UPDATE, type BlockUpdateMessage } from '../../../../sdk/src/iframe.ts'
import { AdminShell, NamedGlyph } from '../../components/admin-shell/index.tsx'
import { SettingsForm } from '../../components/settings-form/index.tsx'
import { ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { categoryLabel } from '../../lib/format.ts'
import { moveItem, newBlockId, type AvailableBlock, type BlockInstance, type Page } from '../../lib/pages.ts'
import { PageDetails } from './page-details.tsx'
import { useLeaveGuard } from './use-leave-guard.ts'
import { PREVIEW_SANDBOX } from '../../lib/preview-sandbox.ts'
import { problemsByField } from '../../lib/field-errors.ts'
import { settingsProblems } from '../../lib/settings-problems.ts'
import styles from './style.module.css'

const keyOf = (block: { installationId: string, blockType: string }) => `${block.installationId}/${block.blockType}`

/** The picker: installed apps' active blocks, grouped by category, with name, icon and description. */
function BlockPicker ({ available, onAdd }: { available: AvailableBlock[], onAdd: (block: AvailableBlock) => void }) {
  if (available.length === 0) {
    return <p class='muted'>No installed app offers blocks yet. Install one from the <a href='/'>marketplace</a>.</p>
  }
  const categories = [...new Set(available.map((b) => b.category))].sort()
  return (
    <div data-testid='block-picker'>
      {categories.map((category) => (
        <div key={category} class={styles.category}>
          <h3>{categoryLabel(category)}</h3>
          <ul class={styles.picker}>
            {available.filter((b) => b.category === category).map((block) => (
              <li key={keyOf(block)}>
                <NamedGlyph iconName={block.iconName} app={block.app} frame={styles.icon} />
                <span class={styles.pickerText}>
                  <strong>{block.name}</strong>
                  <span class='muted'>{block.description !== '' ? block.description : `From ${block.app.name}`}</span>
                </span>
                <button type='button' class='secondary' aria-label={`Add ${block.name}`} onClick={() => onAdd(block)}>Add</button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  )
}

/**
 * The page's blocks in order: drag by the handle (SortableJS) or, on a focused item, Alt+↑/Alt+↓, or the
 * move buttons. A block whose definition is gone (manifest sync) shows as inactive, with Remove.
 */
function BlockList ({ invalidIds, blocks, definitionOf, selectedId, onSelect, onMove, onRemove }: {
  /** Blocks whose settings have a problem: marked in the list, so one not selected is found too. */
  invalidIds: ReadonlySet<string>
  blocks: BlockInstance[]
  definitionOf: (block: BlockInstance) => AvailableBlock | undefined
  selectedId: string | null
  onSelect: (id: string) => void
  onMove: (from: number, to: number) => void
  onRemove: (id: string) => void
}) {
  const list = useRef<HTMLOListElement>(null)
  const move = useRef(onMove)
  move.current = onMove
  const [announce, setAnnounce] = useState('')
  const [focusId, setFocusId] = useState<string | null>(null)
  const hasBlocks = blocks.length > 0

  useEffect(() => {
    if (list.current === null) return
    const sortable = Sortable.create(list.current, {
      handle: `.${styles.handle}`,
      animation: 150,
      // mouse and touch events instead of HTML5 drag and drop: the same on phones
      forceFallback: true,
      onEnd: (event) => {
        const { item, from, oldIndex, newIndex } = event
        if (oldIndex === undefined || newIndex === undefined) return
        // Preact owns these nodes: put the dragged one back, and let the state change reorder them
        from.removeChild(item)
        from.insertBefore(item, from.children[oldIndex] ?? null)
        move.current(oldIndex, newIndex)
      }
    })
    return () => sortable.destroy()
  }, [hasBlocks])

  useEffect(() => {
    if (focusId === null) return
    list.current?.querySelector<HTMLElement>(`[data-block-id="${focusId}"]`)?.focus()
    setFocusId(null)
  }, [blocks])

  const moveBy = (index: number, delta: number) => {
    const to = index + delta
    if (to < 0 || to >= blocks.length) return
    const block = blocks[index]
    onMove(index, to)
    setFocusId(block.id)
    setAnnounce(`${definitionOf(block)?.name ?? block.blockType} moved to position ${to + 1} of ${blocks.length}`)
  }

  if (!hasBlocks) return <p class='muted' data-testid='page-blocks-empty'>No blocks on this page yet: add one below.</p>
  return (
    <>
      <p class='sr-only' aria-live='polite'>{announce}</p>
      <ol ref={list} class={styles.blocks} data-testid='page-blocks' aria-label='Blocks on this page'>
        {blocks.map((block, index) => {
          const definition = definitionOf(block)
          const name = definition?.name ?? block.blockType
          return (
            <li
              key={block.id}
              data-block-id={block.id}
              tabIndex={0}
              class={`${styles.block} ${block.id === selectedId ? styles.selected : ''} ${definition === undefined ? styles.inactive : ''}`}
              aria-current={block.id === selectedId ? 'true' : undefined}
              aria-label={`${name}, position ${index + 1} of ${blocks.length}${definition === undefined ? ', inactive' : ''}${invalidIds.has(block.id) ? ', settings need fixing' : ''}. Alt+Up or Alt+Down to move.`}
              onClick={() => onSelect(block.id)}
              onKeyDown={(e) => {
                if (e.target !== e.currentTarget) return
                if (e.altKey && e.key === 'ArrowUp') { e.preventDefault(); moveBy(index, -1) }
                if (e.altKey && e.key === 'ArrowDown') { e.preventDefault(); moveBy(index, 1) }
                if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onSelect(block.id) }
              }}
            >
              <span class={styles.handle} aria-hidden='true' title='Drag to reorder'>⋮⋮</span>
              <span class={styles.blockName}>
                {name}
                {definition === undefined
                  ? <span class={styles.inactiveBadge}>Inactive: the app removed this block</span>
                  : <span class='muted'>{definition.app.name}</span>}
                {invalidIds.has(block.id) && <span class='field-error' data-testid='block-invalid'>Check its settings</span>}
              </span>
              <span class={styles.blockActions}>
                <button type='button' class='secondary' aria-label={`Move ${name} up`} disabled={index === 0} onClick={(e) => { e.stopPropagation(); moveBy(index, -1) }}>↑</button>
                <button type='button' class='secondary' aria-label={`Move ${name} down`} disabled={index === blocks.length - 1} onClick={(e) => { e.stopPropagation(); moveBy(index, 1) }}>↓</button>
                <button type='button' class='danger' aria-label={`Remove ${name}`} onClick={(e) => { e.stopPropagation(); onRemove(block.id) }}>Remove</button>
              </span>
            </li>
          )
        })}
      </ol>
    </>
  )
}

/**
 * The live preview: the real storefront page on the storefront origin, loaded with a signed preview
 * token carrying the draft (DESIGN §16), never a session. The URL changes (reload) when blocks are
 * added, removed or reordered; setting edits go to the frame as SERVICE_BLOCK_UPDATE. Each URL gets a new
 * frame element: a frame that navigates adds a history entry, so the browser's Back would step back
 * inside the frame (no navigate event on the page, nothing for the leave guard to catch).
 */
function Preview ({ url, frame, error, generation, onLoad }: {
  url: string | null, frame: { current: HTMLIFrameElement | null }, error: string | null, generation: number, onLoad: (frame: HTMLIFrameElement) => void
}) {
  return (
    <div class={styles.preview}>
      <ErrorMessage message={error} />
      {url === null && error === null && <Loading what='Loading the preview' />}
      {/* a new frame per URL: changing a frame's src adds a history entry, and Back would go back in the frame */}
      {url !== null && <iframe key={`${generation} ${url}`} ref={frame} class={styles.frame} title='Page preview' src={url} sandbox={PREVIEW_SANDBOX} onLoad={(e) => onLoad(e.currentTarget)} />}
    </div>
  )
}

function Editor ({ page, available, onRenamed }: { page: Page, available: AvailableBlock[], onRenamed: (page: Page) => void }) {
  const { api } = useSession()
  const [saved, setSaved] = useState<BlockInstance[]>(page.blocks)
  const [draft, setDraft] = useState<BlockInstance[]>(page.blocks)
  const [selectedId, setSelectedId] = useState<string | null>(page.blocks[0]?.id ?? null)
  const [preview, setPreview] = useState<{ url: string | null, error: string | null }>({ url: null, error: null })
  const [notice, setNotice] = useState<string | null>(null)
  // bumped to reload the preview when only settings changed (Discard): they went by message
  const [generation, setGeneration] = useState(0)
  const frame = useRef<HTMLIFrameElement>(null)
  // the frame whose storefront page has loaded: until then its window is still the admin's about:blank, and
  // a message to the storefront's origin would be dropped with an origin-mismatch warning (#29 item 15);
  // edits made meanwhile wait in `pending` and go once it loads
  const loadedFrame = useRef<HTMLIFrameElement | null>(null)
  const pending = useRef(new Map<string, Record<string, unknown>>())
  const save = useAction()
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved)
  useLeaveGuard(dirty, 'This page has unsaved changes. Leave without saving them?')

  const definitions = new Map(available.map((b) => [keyOf(b), b]))
  const definitionOf = (block: BlockInstance) => definitions.get(keyOf(block))
  const selected = draft.find((b) => b.id === selectedId) ?? null
  const structure = draft.map((b) => `${b.id}:${keyOf(b)}`).join('|')
  const blocksPath = `/merchant/pages/${encodeURIComponent(page.slug)}`

  // a new preview URL (reload) for each structural change; settings travel in the draft too
  useEffect(() => {
    let current = true
    pending.current.clear() // this draft carries them
    api.post<{ previewUrl: string }>(`${blocksPath}/preview`, { blocks: draft }).then(
      (answer) => { if (current) setPreview({ url: answer.previewUrl, error: null }) },
      (e: unknown) => { if (current) setPreview({ url: null, error: e instanceof Error ? `The preview could not load: ${e.message}` : 'The preview could not load' }) }
    )
    return () => { current = false }
  }, [structure, page.slug, generation])

  const change = (next: BlockInstance[]) => { setNotice(null); save.clear(); setDraft(next) }
  const editSettings = (id: string, settings: Record<string, unknown>) => {
    change(draft.map((b) => b.id === id ? { ...b, settings } : b))
    if (preview.url === null) return
    if (frame.current === null || loadedFrame.current !== frame.current) pending.current.set(id, settings)
    else postUpdate(frame.current, preview.url, id, settings)
  }
  /** To the storefront page in the frame, at its origin only; its host script forwards it to the block. */
  const postUpdate = (target: HTMLIFrameElement, url: string, blockId: string, settings: Record<string, unknown>) => {
    const message: BlockUpdateMessage = { type: BLOCK_UPDATE, blockId, settings }
    target.contentWindow?.postMessage(message, new URL(url).origin)
  }
  const onPreviewLoad = (loaded: HTMLIFrameElement) => {
    loadedFrame.current = loaded
    if (preview.url === null) return
    for (const [blockId, settings] of pending.current) postUpdate(loaded, preview.url, blockId, settings)
    pending.current.clear()
  }
  const add = (block: AvailableBlock) => {
    const id = newBlockId()
    change([...draft, { id, installationId: block.installationId, blockType: block.blockType, settings: { ...block.defaultConfig } }])
    setSelectedId(id)
  }
  const remove = (id: string) => {
    change(draft.filter((b) => b.id !== id))
    if (selectedId === id) setSelectedId(null)
  }
  const onSave = async () => {
    const result = await save.run(() => api.put<Page>(`${blocksPath}/blocks`, { blocks: draft }))
    if (result === null) return
    setSaved(result.blocks)
    setDraft(result.blocks)
    setNotice('Page saved: your storefront shows it now')
  }
  const discard = () => {
    setDraft(saved)
    if (selectedId !== null && !saved.some((b) => b.id === selectedId)) setSelectedId(null)
    setNotice('Changes discarded')
    setGeneration(generation + 1)
  }
  const selectedDefinition = selected === null ? undefined : definitionOf(selected)
  // the settings checked as the merchant types (the block's own schema), and the last save's problems by block
  const invalidIds = new Set(draft.filter((b) => {
    const schema = definitionOf(b)?.settingsSchema
    return (schema !== null && schema !== undefined && Object.keys(settingsProblems(schema, b.settings)).length > 0) ||
      Object.keys(problemsByField(save.problems, `/blocks/${draft.indexOf(b)}`)).length > 0
  }).map((b) => b.id))
  const selectedIndex = selected === null ? -1 : draft.indexOf(selected)
  const localInvalid = draft.some((b) => {
    const schema = definitionOf(b)?.settingsSchema
    return schema !== null && schema !== undefined && Object.keys(settingsProblems(schema, b.settings)).length > 0
  })

  return (
    <div class={styles.editor}>
      <div class={styles.toolbar} role='toolbar' aria-label='Page changes'>
        <span class={dirty ? styles.unsaved : 'muted'} data-testid='save-state'>{dirty ? 'Unsaved changes' : 'All changes saved'}</span>
        <button type='button' class='secondary' disabled={!dirty || save.busy} onClick={discard}>Discard</button>
        <button type='button' disabled={!dirty || save.busy || localInvalid} aria-describedby={localInvalid ? 'page-save-blocked' : undefined} onClick={() => { void onSave() }}>{save.busy ? 'Saving…' : 'Save'}</button>
      </div>
      {localInvalid && <p id='page-save-blocked' class='field-error'>Fix the marked block settings to save.</p>}
      {notice !== null && <Notice>{notice}</Notice>}
      <ErrorMessage message={save.error} problems={save.problems} marked={save.problems.length > 0 && save.problems.every((p) => /^\/blocks\/\d+\/settings\//.test(p.path))} />
      <div class={styles.columns}>
        <aside class={styles.sidebar} aria-label='Page editor'>
          <PageDetails page={page} onSaved={onRenamed} />
          <section class='panel'>
            <h2>Blocks on this page</h2>
            <BlockList
              invalidIds={invalidIds} blocks={draft} definitionOf={definitionOf} selectedId={selectedId} onSelect={setSelectedId}
              onMove={(from, to) => change(moveItem(draft, from, to))} onRemove={remove}
            />
          </section>
          {selected !== null && (
            <section class='panel' data-testid='block-settings'>
              <h2>{selectedDefinition?.name ?? selected.blockType} settings</h2>
              {selectedDefinition === undefined
                ? <p class='muted'>This block is inactive: its app no longer offers it, so the storefront does not show it. Remove it from the page.</p>
                : selectedDefinition.settingsSchema === null
                  ? <p class='muted'>This block has no settings.</p>
                  : <SettingsForm key={selected.id} idPrefix={`block-${selected.id}`} schema={selectedDefinition.settingsSchema} initial={selected.settings} serverProblems={problemsByField(save.problems, `/blocks/${selectedIndex}/settings`)} onChange={(values) => editSettings(selected.id, values)} />}
            </section>
          )}
          <section class='panel'>
            <h2>Add a block</h2>
            <BlockPicker available={available} onAdd={add} />
          </section>
        </aside>
        <Preview url={preview.url} frame={frame} error={preview.error} generation={generation} onLoad={onPreviewLoad} />
      </div>
    </div>
  )
}

/** /admin/pages/:slug: the theme editor of one page. */
export default function PageEditor () {
  const { params } = useRoute()
  const { route } = useLocation()
  const { api } = useSession()
  const slug = params.slug ?? ''
  const page = useResource<Page>(`merchant-page-${slug}`, () => api.get(`/merchant/pages/${encodeURIComponent(slug)}`))
  const available = useResource<{ data: AvailableBlock[] }>('available-blocks', () => api.get('/merchant/installations/blocks'))
  return (
    <AdminShell>
      {() => (
        <section>
          <p><a href='/admin/pages'>← Pages</a></p>
          <h1>{page.data?.title ?? 'Page'} <span class='muted'>· theme editor</span></h1>
          <ErrorMessage message={page.error ?? available.error} />
          {page.data === null || available.data === null
            ? (page.loading || available.loading) && <Loading what='Loading the page' />
            : <Editor key={page.data.id} page={page.data} available={available.data.data} onRenamed={(next) => { if (next.slug !== slug) route(`/admin/pages/${encodeURIComponent(next.slug)}`, true); else page.reload() }} />}
        </section>
      )}
    </AdminShell>
  )
}
