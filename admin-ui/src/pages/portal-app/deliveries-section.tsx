import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { useLive } from '../../lib/use-live.ts'
import { formatDate } from '../../lib/format.ts'
import { WEBHOOK_EVENTS, type Envelope } from '../../lib/types.ts'
import { useKeysetPages } from '../../lib/use-keyset-pages.ts'
import type { ConsoleWebhook, Delivery, DeliveryDetail, LiveEvent, LogPage, Replayed, WebhookTestResult } from '../../lib/console-types.ts'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import type { SectionProps } from './section.ts'
import { CodeBlock } from '../../components/code-block/index.tsx'
import styles from './console.module.css'

const PAGE_SIZE = 20
const UNINSTALLED = 'App uninstalled'

/** A datetime-local value (the browser's time zone) as ISO 8601 UTC, or undefined when empty. */
const isoOf = (local: string): string | undefined => local === '' ? undefined : new Date(local).toISOString()

/** What a replay leaves: exact up to 10 000, a lower bound past that (the server never counts a whole log). */
const moreThan = (plan: Replayed) => plan.remainingExact ? String(plan.remaining) : `more than ${plan.remaining}`

const lastOutcome = (d: Delivery) => d.lastStatusCode === null ? (d.lastError ?? 'no answer yet') : `HTTP ${d.lastStatusCode}`

export function LiveIndicator ({ state }: { state: string }) {
  return <span class={styles.live} role='status' data-testid='live-state'><span class={`${styles.dot} ${state === 'live' ? styles.live : ''}`} />{state === 'live' ? 'Live' : state === 'off' ? 'Live tail off' : 'Connecting…'}</span>
}

/** Re-enable, send a test event, replay since a time (with the count it will queue, confirmed first). */
function Registration ({ appId, webhook, onChanged }: { appId: string, webhook: ConsoleWebhook, onChanged: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const [result, setResult] = useState<{ text: string, failed: boolean } | null>(null)
  const [replaying, setReplaying] = useState(false)
  const [since, setSince] = useState('')
  const [status, setStatus] = useState('')
  const [preview, setPreview] = useState<Replayed | null>(null)
  const base = `/developer/apps/${encodeURIComponent(appId)}/webhooks/${encodeURIComponent(webhook.id)}`
  const body = () => ({ since: isoOf(since), ...(status === '' ? {} : { status }) })

  async function test () {
    setResult(null)
    const outcome = await action.run(() => api.post<WebhookTestResult>(`${base}/test`))
    if (outcome === null) return onChanged()
    setResult(outcome.success
      ? { text: `Test event delivered: HTTP ${outcome.statusCode} in ${outcome.durationMs} ms`, failed: false }
      : { text: `Test event failed: ${outcome.error ?? 'no answer'}`, failed: true })
    onChanged()
  }
  async function reEnable () {
    if (await action.run(() => api.patch(base, { isActive: true })) !== null) onChanged()
  }
  async function check (event: Event) {
    event.preventDefault()
    setPreview(await action.run(() => api.post<Replayed>(`${base}/replay?dryRun=true`, body())))
  }
  async function replay () {
    const done = await action.run(() => api.post<Replayed>(`${base}/replay`, body()))
    if (done === null) return
    setPreview(null)
    setReplaying(false)
    setResult({ text: `Queued ${done.queued} ${done.queued === 1 ? 'delivery' : 'deliveries'}${done.remaining > 0 ? `; ${moreThan(done)} more from ${formatDate(done.nextSince)}` : ''}`, failed: false })
    onChanged()
  }

  const canReEnable = !webhook.isActive && webhook.installationActive && webhook.disabledReason !== UNINSTALLED
  return (
    <div class={styles.registration} data-testid='registration'>
      <div class={styles.row}>
        <code>{webhook.url}</code>
        <span class={`${styles.badge} ${webhook.isActive ? styles.ok : styles.refused}`}>{webhook.isActive ? 'Active' : 'Disabled'}</span>
      </div>
      <div class='muted'>{webhook.events.length === 0 ? 'No events yet' : webhook.events.join(', ')}{webhook.isAppWebhook ? ' · the app\'s own webhook' : ''}</div>
      {!webhook.isActive && <div class={styles.reason} data-testid='disabled-reason'>Why it is off: {webhook.disabledReason ?? 'disabled'}</div>}
      <div class={styles.row}>
        {canReEnable && <button type='button' disabled={action.busy} onClick={() => { void reEnable() }}>Re-enable</button>}
        {webhook.isActive && <button type='button' class='secondary' disabled={action.busy} onClick={() => { void test() }}>Send test event</button>}
        {webhook.isActive && <button type='button' class='secondary' aria-expanded={replaying} onClick={() => { setReplaying(!replaying); setPreview(null) }}>Replay since…</button>}
      </div>
      {replaying && (
        <form class={styles.filters} onSubmit={(e) => { void check(e) }}>
          <label>Since<input type='datetime-local' required value={since} onInput={(e) => { setSince(e.currentTarget.value); setPreview(null) }} /></label>
          <label>Status
            <select value={status} onChange={(e) => { setStatus(e.currentTarget.value); setPreview(null) }}>
              <option value=''>Any</option><option value='FAILED'>Failed</option><option value='SUCCEEDED'>Succeeded</option>
            </select>
          </label>
          <button type='submit' class='secondary' disabled={action.busy || since === ''}>Count</button>
        </form>
      )}
      {preview !== null && (
        <div class={styles.confirm} role='alertdialog' aria-label='Confirm the replay' data-testid='replay-confirm'>
          <p>
            This will queue <strong data-testid='replay-count'>{preview.queued}</strong> {preview.queued === 1 ? 'delivery' : 'deliveries'} again with their event ids
            {preview.remaining > 0 ? ` (at most 1 000 per replay: ${moreThan(preview)} more after that)` : ''}.
          </p>
          <div class={styles.row}>
            <button type='button' disabled={action.busy || preview.queued === 0} onClick={() => { void replay() }}>Replay {preview.queued}</button>
            <button type='button' class='secondary' onClick={() => setPreview(null)}>Cancel</button>
          </div>
        </div>
      )}
      <ErrorMessage message={action.error} />
      {result !== null && <Notice tone={result.failed ? 'error' : 'ok'}>{result.text}</Notice>}
    </div>
  )
}

/** The registrations grouped by store, newest store first: one heading per store, its registrations under it. */
function byStore (registrations: ConsoleWebhook[]) {
  const stores = new Map<string, ConsoleWebhook[]>()
  for (const webhook of registrations) stores.set(webhook.businessId, [...(stores.get(webhook.businessId) ?? []), webhook])
  return [...stores.values()]
}

function StoreRegistrations ({ appId, webhooks, onChanged }: { appId: string, webhooks: ConsoleWebhook[], onChanged: () => void }) {
  const [first] = webhooks
  const headingId = `store-${first.businessId}`
  const installed = webhooks.some((w) => w.installationActive)
  return (
    <section class={styles.store} aria-labelledby={headingId} data-testid='store'>
      <div class={styles.row}>
        <h3 id={headingId} class={styles.storeName}>{first.storeName ?? 'A deleted store'}</h3>
        {first.isTestInstall && <span class={`${styles.badge} ${styles.sandbox}`}>Sandbox</span>}
        {!installed && <span class={`${styles.badge} ${styles.sandbox}`}>Uninstalled</span>}
        <code class='muted' title='Business id'>{first.businessId}</code>
      </div>
      {webhooks.map((w) => <Registration key={w.id} appId={appId} webhook={w} onChanged={onChanged} />)}
    </section>
  )
}

function Attempts ({ detail }: { detail: DeliveryDetail }) {
  if (detail.attempts.length === 0) return <Empty>No attempt yet.</Empty>
  return (
    <>
      {detail.attempts.map((a) => (
        <section key={a.attempt} class={styles.attempt} data-testid='attempt' aria-label={`Attempt ${a.attempt}`}>
          <h4>Attempt {a.attempt} · {a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`} · {a.durationMs} ms{a.relayed && <span data-testid='relayed'> · relayed</span>}</h4>
          <dl class={styles.kv}>
            <dt>Sent</dt><dd>{formatDate(a.createdAt)}</dd>
            {a.error !== null && <><dt>Error</dt><dd data-testid='attempt-error'>{a.error}</dd></>}
            {a.nextRetryAt !== null && <><dt>Next retry</dt><dd data-testid='next-retry'>{formatDate(a.nextRetryAt)}</dd></>}
          </dl>
          <div class='muted'>Response body (first 1 KB)</div>
          <CodeBlock label={`Attempt ${a.attempt}: response body`} testId='response-body' text={a.responseSnippet ?? '(empty)'} pretty />
          {a.requestHeaders !== null && (
            <details>
              <summary>Request headers</summary>
              <CodeBlock label={`Attempt ${a.attempt}: request headers`} testId='request-headers' text={Object.entries(a.requestHeaders).map(([k, v]) => `${k}: ${v}`).join('\n')} />
            </details>
          )}
        </section>
      ))}
    </>
  )
}

function DeliveryPanel ({ appId, id, version, onRedelivered }: { appId: string, id: string, version: number, onRedelivered: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const path = `/developer/apps/${encodeURIComponent(appId)}/deliveries/${encodeURIComponent(id)}`
  const detail = useResource<DeliveryDetail>(`${path}#${version}`, () => api.get(path))
  const [notice, setNotice] = useState<string | null>(null)
  async function redeliver () {
    if (await action.run(() => api.post(`${path}/redeliver`)) === null) return
    setNotice('Redelivery queued: a new attempt with the same event id.')
    onRedelivered()
  }
  const d = detail.data
  return (
    <div class={styles.detail} data-testid='delivery-detail' aria-live='polite'>
      {d === null
        ? detail.loading ? <Loading what='Loading the delivery' /> : <ErrorMessage message={detail.error} />
        : (
          <>
            <h3>{d.event} <span class={`${styles.badge} ${styles[d.status]}`}>{d.status}</span></h3>
            <dl class={styles.kv}>
              <dt>Event id</dt><dd><code data-testid='event-id'>{d.id}</code></dd>
              <dt>Registration</dt><dd><code>{d.webhookUrl ?? '(deleted)'}</code></dd>
              <dt>Store</dt><dd data-testid='delivery-store'>{d.storeName ?? 'A deleted store'}{d.isTestInstall ? ' (sandbox)' : ''}</dd>
              <dt>Installation</dt><dd><code>{d.installationId}</code></dd>
              <dt>Created</dt><dd>{formatDate(d.createdAt)}</dd>
              {d.nextAttemptAt !== null && <><dt>Next attempt</dt><dd>{formatDate(d.nextAttemptAt)}</dd></>}
              {d.completedAt !== null && <><dt>Finished</dt><dd>{formatDate(d.completedAt)}</dd></>}
            </dl>
            <div class={styles.row}>
              <button type='button' disabled={action.busy} onClick={() => { void redeliver() }}>Redeliver</button>
            </div>
            <ErrorMessage message={action.error} />
            {notice !== null && <Notice>{notice}</Notice>}
            <div class='muted'>Body sent with every attempt</div>
            <CodeBlock label='Body sent with every attempt' testId='request-body' text={d.requestBody} pretty />
            <Attempts detail={d} />
          </>
          )}
    </div>
  )
}

export function DeliveriesSection ({ app }: SectionProps) {
  const { api, session } = useSession()
  const [filters, setFilters] = useState({ status: '', event: '', webhookId: '', from: '', to: '' })
  const pages = useKeysetPages()
  // the open delivery is in the URL (?delivery=): a link to it works, and Back closes it
  const location = useLocation()
  const selected = location.query.delivery ?? null
  const select = (id: string) => location.route(`${location.path}?${new URLSearchParams({ ...location.query, delivery: id }).toString()}`)
  const [version, setVersion] = useState(0)
  const [fresh, setFresh] = useState<Set<string>>(new Set())
  const appPath = `/developer/apps/${encodeURIComponent(app.id)}`
  const query = new URLSearchParams({ page: String(pages.page), limit: String(PAGE_SIZE) })
  if (pages.before !== null) query.set('before', pages.before)
  for (const [key, value] of Object.entries(filters)) {
    if (value === '') continue
    query.set(key, key === 'from' || key === 'to' ? isoOf(value) as string : value)
  }
  const listPath = `${appPath}/deliveries?${query.toString()}`
  const list = useResource<LogPage<Delivery>>(`${listPath}#${version}`, () => api.get(listPath))
  // registrations an uninstall switched off stay for their log, behind a filter: a reinstall would otherwise list each store twice
  const [showUninstalled, setShowUninstalled] = useState(false)
  const registrationsPath = `${appPath}/webhooks?limit=100&uninstalled=${showUninstalled ? 'include' : 'exclude'}`
  const registrations = useResource<Envelope<ConsoleWebhook>>(`${registrationsPath}#${version}`, () => api.get(registrationsPath))
  const uninstalledPath = `${appPath}/webhooks?limit=1&uninstalled=only`
  const uninstalled = useResource<Envelope<ConsoleWebhook>>(`${uninstalledPath}#${version}`, () => api.get(uninstalledPath))
  const hidden = uninstalled.data?.total ?? 0

  // live: a new attempt reloads the list (coalesced), and the open delivery if it is the one
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const onLive = (event: LiveEvent) => {
    if (event.type !== 'delivery') return
    setFresh((previous) => new Set([...previous, event.id]))
    if (timer.current !== null) return
    timer.current = setTimeout(() => { timer.current = null; setVersion((v) => v + 1) }, 150)
  }
  useEffect(() => () => { if (timer.current !== null) clearTimeout(timer.current) }, [])
  const live = useLive(app.id, () => session?.token ?? null, onLive)

  const set = (key: keyof typeof filters) => (e: Event) => {
    setFilters({ ...filters, [key]: (e.currentTarget as HTMLInputElement).value })
    pages.reset()
  }
  const refresh = () => setVersion((v) => v + 1)

  return (
    <>
      <div class={styles.toolbar}><h2>Webhooks</h2><LiveIndicator state={live} /></div>
      {registrations.data === null
        ? registrations.loading ? <Loading what='Loading the registrations' /> : <ErrorMessage message={registrations.error} />
        : registrations.data.data.length === 0
          ? <Empty>{hidden > 0 ? 'No registration is active: the app was uninstalled from every store.' : 'No webhook registrations yet. Set a webhook URL and test-install the app, or register one with POST /webhooks.'}</Empty>
          : (
            <div class={styles.registrations}>
              {byStore(registrations.data.data).map((group) => (
                <StoreRegistrations key={group[0].businessId} appId={app.id} webhooks={group} onChanged={refresh} />
              ))}
            </div>
            )}
      {hidden > 0 && (
        <label class={styles.check}>
          <input type='checkbox' checked={showUninstalled} onChange={(e) => setShowUninstalled(e.currentTarget.checked)} data-testid='show-uninstalled' />
          Show the {hidden} {hidden === 1 ? 'registration' : 'registrations'} switched off by an uninstall
        </label>
      )}

      <h2>Deliveries</h2>
      <form class={styles.filters} aria-label='Filter deliveries' onSubmit={(e) => e.preventDefault()}>
        <label>Status
          <select value={filters.status} onChange={set('status')}>
            <option value=''>Any</option><option value='PENDING'>Pending</option><option value='SUCCEEDED'>Succeeded</option><option value='FAILED'>Failed</option>
          </select>
        </label>
        <label>Event
          <select value={filters.event} onChange={set('event')}>
            <option value=''>Any</option>
            {['webhook.test', ...WEBHOOK_EVENTS].map((e) => <option key={e} value={e}>{e}</option>)}
          </select>
        </label>
        <label>Registration
          <select value={filters.webhookId} onChange={set('webhookId')}>
            <option value=''>Any</option>
            {(registrations.data?.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>{w.storeName ?? 'A deleted store'}: {w.url}{w.isTestInstall ? ' (sandbox)' : ''}{w.isActive ? '' : ' (off)'}</option>
            ))}
          </select>
        </label>
        <label>From<input type='datetime-local' value={filters.from} onInput={set('from')} /></label>
        <label>To<input type='datetime-local' value={filters.to} onInput={set('to')} /></label>
      </form>
      <ErrorMessage message={list.error} />
      <div class={styles.layout}>
        <div>
          {list.data === null
            ? list.loading && <Loading what='Loading the deliveries' />
            : list.data.data.length === 0
              ? <Empty>No deliveries match.</Empty>
              : (
                <ul class={styles.list} data-testid='deliveries'>
                  {list.data.data.map((d) => (
                    <li key={d.id} class={fresh.has(d.id) ? styles.new : ''}>
                      <button type='button' class={styles.item} aria-current={selected === d.id} data-testid='delivery' data-delivery-id={d.id} onClick={() => select(d.id)}>
                        <strong>{d.event}</strong>
                        <span class={`${styles.badge} ${styles[d.status]}`}>{d.status}</span>
                        <span class={styles.meta}>
                          {formatDate(d.createdAt)} · {d.attemptCount} {d.attemptCount === 1 ? 'attempt' : 'attempts'} · {lastOutcome(d)}
                        </span>
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
        {selected === null
          ? <p class='muted'>Choose a delivery to see its attempts.</p>
          : <DeliveryPanel appId={app.id} id={selected} version={version} onRedelivered={refresh} />}
      </div>
    </>
  )
}
