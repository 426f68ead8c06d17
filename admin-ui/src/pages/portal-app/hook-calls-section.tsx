import { useEffect, useRef, useState } from 'preact/hooks'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useLive } from '../../lib/use-live.ts'
import { formatDate } from '../../lib/format.ts'
import { useKeysetPages } from '../../lib/use-keyset-pages.ts'
import { HOOK_POINTS, type HookCall, type HookCallDetail, type LiveEvent, type LogPage } from '../../lib/console-types.ts'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import { LiveIndicator } from './deliveries-section.tsx'
import { CodeBlock } from '../../components/code-block/index.tsx'
import styles from './console.module.css'

const PAGE_SIZE = 20

function CallPanel ({ appId, id }: { appId: string, id: string }) {
  const { api } = useSession()
  const path = `/developer/apps/${encodeURIComponent(appId)}/hook-calls/${encodeURIComponent(id)}`
  const call = useResource<HookCallDetail>(path, () => api.get(path))
  const c = call.data
  return (
    <div class={styles.detail} data-testid='hook-call-detail' aria-live='polite'>
      {c === null
        ? call.loading ? <Loading what='Loading the hook call' /> : <ErrorMessage message={call.error} />
        : (
          <>
            <h3>{c.hookPoint} <span class={`${styles.badge} ${c.success ? styles.ok : styles.refused}`}>{c.success ? 'Answered' : 'Refused'}</span></h3>
            {c.error !== null && <div class={styles.reason} data-testid='refusal-reason'><strong>Why it was refused:</strong> {c.error}</div>}
            {c.policyApplied !== null && <div class={styles.policy} data-testid='policy-applied'><strong>What the checkout did:</strong> {c.policyApplied}</div>}
            <dl class={styles.kv}>
              <dt>URL</dt><dd><code>{c.url}</code></dd>
              <dt>Status</dt><dd>{c.statusCode === null ? 'no answer' : `HTTP ${c.statusCode}`}</dd>
              <dt>Duration</dt><dd>{c.durationMs} ms</dd>
              <dt>Failure policy</dt><dd>{c.failurePolicy ?? '—'}</dd>
              <dt>Route</dt><dd>{c.relayed ? 'Relayed to your machine (app-platform listen)' : 'Network'}</dd>
              <dt>Store</dt><dd data-testid='hook-call-store'>{c.storeName ?? 'A deleted store'}</dd>
              <dt>Installation</dt><dd><code>{c.installationId}</code></dd>
              <dt>When</dt><dd>{formatDate(c.createdAt)}</dd>
            </dl>
            <div class='muted'>Request body</div>
            <CodeBlock label='Request body' testId='hook-request' text={c.requestBody ?? '(not kept)'} pretty />
            <div class='muted'>The answer (first 4 KB)</div>
            <CodeBlock label='The answer' testId='hook-answer' text={c.answer ?? '(no answer)'} pretty />
          </>
          )}
    </div>
  )
}

export function HookCallsSection ({ app }: SectionProps) {
  const { api, session } = useSession()
  const [hookPoint, setHookPoint] = useState('')
  const [outcome, setOutcome] = useState('')
  const pages = useKeysetPages()
  const [selected, setSelected] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  const query = new URLSearchParams({ page: String(pages.page), limit: String(PAGE_SIZE) })
  if (pages.before !== null) query.set('before', pages.before)
  if (hookPoint !== '') query.set('hookPoint', hookPoint)
  if (outcome !== '') query.set('success', outcome)
  const path = `/developer/apps/${encodeURIComponent(app.id)}/hook-calls?${query.toString()}`
  const list = useResource<LogPage<HookCall>>(`${path}#${version}`, () => api.get(path))
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const onLive = (event: LiveEvent) => {
    if (event.type !== 'hookCall' || timer.current !== null) return
    timer.current = setTimeout(() => { timer.current = null; setVersion((v) => v + 1) }, 150)
  }
  useEffect(() => () => { if (timer.current !== null) clearTimeout(timer.current) }, [])
  const live = useLive(app.id, () => session?.token ?? null, onLive)

  return (
    <>
      <div class={styles.toolbar}><h2>Hook calls</h2><LiveIndicator state={live} /></div>
      <p class='muted'>Every synchronous call the checkout made to your hooks, on merchants' stores and on your sandbox.</p>
      <form class={styles.filters} aria-label='Filter hook calls' onSubmit={(e) => e.preventDefault()}>
        <label>Hook point
          <select value={hookPoint} onChange={(e) => { setHookPoint(e.currentTarget.value); pages.reset() }}>
            <option value=''>Any</option>
            {HOOK_POINTS.map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        </label>
        <label>Outcome
          <select value={outcome} onChange={(e) => { setOutcome(e.currentTarget.value); pages.reset() }}>
            <option value=''>Any</option><option value='true'>Answered</option><option value='false'>Refused</option>
          </select>
        </label>
      </form>
      <ErrorMessage message={list.error} />
      <div class={styles.layout}>
        <div>
          {list.data === null
            ? list.loading && <Loading what='Loading the hook calls' />
            : list.data.data.length === 0
              ? <Empty>No hook calls match.</Empty>
              : (
                <ul class={styles.list} data-testid='hook-calls'>
                  {list.data.data.map((c) => (
                    <li key={c.id}>
                      <button type='button' class={styles.item} aria-current={selected === c.id} data-testid='hook-call' onClick={() => setSelected(c.id)}>
                        <strong>{c.hookPoint}</strong>
                        <span class={`${styles.badge} ${c.success ? styles.ok : styles.refused}`}>{c.success ? 'Answered' : 'Refused'}</span>
                        {c.relayed && <span class={styles.badge} data-testid='relayed' title='Answered through app-platform listen'>Relayed</span>}
                        <span class={styles.meta}>{formatDate(c.createdAt)} · {c.durationMs} ms · {c.error ?? (c.statusCode === null ? '' : `HTTP ${c.statusCode}`)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
                )}
          {list.data !== null && (
            <Pager
              page={list.data.page} limit={list.data.limit} total={list.data.total} hasNext={list.data.nextCursor !== null}
              onPage={(to) => pages.go(to, list.data?.nextCursor ?? null)}
            />
          )}
        </div>
        {selected === null ? <p class='muted'>Choose a call to see what was sent and answered.</p> : <CallPanel key={selected} appId={app.id} id={selected} />}
      </div>
    </>
  )
}
