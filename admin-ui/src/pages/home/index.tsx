import { useLocation } from 'preact-iso'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { CATEGORIES, type Envelope, type MarketplaceApp } from '../../lib/types.ts'
import { categoryLabel } from '../../lib/format.ts'
import { AppCard } from '../../components/app-card/index.tsx'
import { Pager } from '../../components/pager/index.tsx'
import { Empty, ErrorMessage, Loading } from '../../components/states/index.tsx'
import styles from './style.module.css'

const PAGE_SIZE = 12

/** The marketplace's orders (DESIGN §24); newest is the API's default, so it stays out of the URL. */
const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'rating', label: 'Best rated' },
  { value: 'installs', label: 'Most installed' },
  { value: 'name', label: 'Name (A to Z)' }
] as const
const DEFAULT_SORT = 'newest'

const ROLE_TEXT = {
  DEVELOPER: <>Build apps, test them on your sandbox business and submit them for review in the <a href='/portal'>developer portal</a>.</>,
  MERCHANT: <>Install apps on your business from the marketplace below.</>,
  REVIEWER: <>Review submitted apps in the <a href='/reviewer'>review queue</a>.</>
} as const

/** `/`: the marketplace home. Search, category and page live in the URL so back and reload keep them. */
export default function Home () {
  const { session, api } = useSession()
  const { query, route } = useLocation()
  const q = query.q ?? ''
  const category = query.category ?? ''
  const sort = SORTS.find((s) => s.value === query.sort)?.value ?? DEFAULT_SORT
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1)
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE), ...(q !== '' ? { q } : {}), ...(category !== '' ? { category } : {}), ...(sort !== DEFAULT_SORT ? { sort } : {}) })
  const apps = useResource<Envelope<MarketplaceApp>>(`/marketplace/apps?${params}`, () => api.get(`/marketplace/apps?${params}`))

  function go (next: { q?: string, category?: string, sort?: string, page?: number }) {
    const merged = { q: next.q ?? q, category: next.category ?? category, sort: next.sort ?? sort, page: String(next.page ?? 1) }
    const search = new URLSearchParams(Object.entries(merged).filter(([k, v]) => v !== '' && !(k === 'page' && v === '1') && !(k === 'sort' && v === DEFAULT_SORT)))
    route(search.size === 0 ? '/' : `/?${search}`)
  }

  return (
    <section>
      {session !== null && <p class={styles.welcome} data-testid='welcome'>Signed in as <strong>{session.user.name}</strong> ({session.user.role}). {ROLE_TEXT[session.user.role]}</p>}
      <div class={styles.hero}>
        <h1>App marketplace</h1>
        <p class='muted'>Apps that extend your store: analytics, shipping, payments, loyalty and more.{session === null && <> <a href='/login'>Log in</a> or <a href='/register'>create an account</a>.</>}</p>
      </div>
      <form class={styles.filters} role='search' onSubmit={(e) => { e.preventDefault(); go({ q: String(new FormData(e.currentTarget as HTMLFormElement).get('q') ?? '').trim() }) }}>
        <input name='q' type='search' placeholder='Search apps' aria-label='Search apps' value={q} key={q} />
        <select aria-label='Category' value={category} onChange={(e) => go({ category: (e.currentTarget as HTMLSelectElement).value })}>
          <option value=''>All categories</option>
          {CATEGORIES.map((c) => <option key={c} value={c}>{categoryLabel(c)}</option>)}
        </select>
        <select aria-label='Sort by' value={sort} onChange={(e) => go({ sort: (e.currentTarget as HTMLSelectElement).value })}>
          {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
        <button type='submit'>Search</button>
      </form>
      <ErrorMessage message={apps.error} />
      {apps.data === null
        ? apps.loading && <Loading what='Loading apps' />
        : apps.data.data.length === 0
          ? <Empty>{q !== '' || category !== '' ? 'No apps match this search.' : 'No apps are published yet.'}</Empty>
          : (
            <>
              <p class='muted' data-testid='result-count'>{apps.data.total === 1 ? '1 app' : `${apps.data.total} apps`}</p>
              <div class={styles.grid} data-testid='app-grid'>
                {apps.data.data.map((app) => <AppCard key={app.id} app={app} />)}
              </div>
              <Pager page={apps.data.page} limit={apps.data.limit} total={apps.data.total} onPage={(p) => go({ page: p })} />
            </>
            )}
    </section>
  )
}
