import { useRef, useState } from 'preact/hooks'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ErrorMessage, Loading, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useAction } from '../../lib/use-action.ts'
import type { MerchantBusiness } from '../../lib/commerce-types.ts'
import styles from '../admin-product/style.module.css'

const TYPES: Array<[string, string]> = [['RESTAURANT', 'Restaurant'], ['CAFE', 'Café'], ['BAKERY', 'Bakery'], ['RETAIL', 'Retail shop'], ['GROCERY', 'Grocery'], ['SERVICES', 'Services'], ['OTHER', 'Other']]

function BusinessForm ({ business, onSaved }: { business: MerchantBusiness, onSaved: () => void }) {
  const { api } = useSession()
  const action = useAction()
  const [draft, setDraft] = useState({ name: business.name, type: business.type, address: business.address, email: business.email, phone: business.phone })
  const [saved, setSaved] = useState(false)
  const notice = useRef<HTMLDivElement>(null)
  const set = (key: keyof typeof draft) => (e: Event) => { setSaved(false); setDraft({ ...draft, [key]: (e.currentTarget as HTMLInputElement).value }) }
  const types = TYPES.some(([value]) => value === business.type) ? TYPES : [[business.type, business.type] as [string, string], ...TYPES]
  async function submit (e: Event) {
    e.preventDefault()
    const result = await action.run(() => api.patch<MerchantBusiness>('/merchant/business', { ...draft, name: draft.name.trim() }))
    if (result === null) return
    setSaved(true)
    onSaved()
    notice.current?.focus()
  }
  return (
    <>
      <div ref={notice} tabIndex={-1}>{saved && <Notice>Settings saved</Notice>}</div>
      <form class={`panel ${styles.form}`} onSubmit={(e) => { void submit(e) }}>
        <label>Business name<input value={draft.name} required maxLength={100} autocomplete='organization' onInput={set('name')} /></label>
        <label>Type
          <select value={draft.type} onChange={set('type')}>{types.map(([value, label]) => <option key={value} value={value}>{label}</option>)}</select>
        </label>
        <label>Address<textarea rows={2} value={draft.address} maxLength={500} autocomplete='street-address' onInput={set('address')} /></label>
        <div class={styles.row}>
          <label>Contact email<input type='email' value={draft.email} maxLength={254} autocomplete='email' onInput={set('email')} /></label>
          <label>Contact phone<input type='tel' value={draft.phone} maxLength={40} autocomplete='tel' onInput={set('phone')} /></label>
        </div>
        <p class='muted'>Store address: <a href={business.storefrontUrl} target='_blank' rel='noopener noreferrer'>{business.storefrontUrl}</a> (it stays when you rename the business). Prices are in {business.currency}.</p>
        <ErrorMessage message={action.error} problems={action.problems} />
        <button type='submit' disabled={action.busy}>{action.busy ? 'Saving…' : 'Save settings'}</button>
      </form>
    </>
  )
}

/** /admin/settings: the business profile (name, type, address, contact). */
export default function AdminBusiness () {
  return (
    <AdminShell>
      {(_installs, _reload, { business, reloadBusiness }) => (
        <section>
          <h1>Settings</h1>
          {business === null ? <Loading what='Loading your business' /> : <BusinessForm key={business.id} business={business} onSaved={reloadBusiness} />}
        </section>
      )}
    </AdminShell>
  )
}
