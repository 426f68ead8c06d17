import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import { AdminShell } from '../../components/admin-shell/index.tsx'
import { ConfirmStep } from '../../components/confirm-step/index.tsx'
import { ErrorMessage, FieldError, Loading, Notice } from '../../components/states/index.tsx'
import { useSession } from '../../lib/use-session.tsx'
import { useResource } from '../../lib/use-resource.ts'
import { useAction } from '../../lib/use-action.ts'
import { allShown, problemsByField } from '../../lib/field-errors.ts'
import { currencyDigits, parseMoney, toMajorInput } from '../../lib/money.ts'
import { PRODUCT_STATUSES, PRODUCT_STATUS_LABEL, type MerchantBusiness, type Product, type ProductStatus } from '../../lib/commerce-types.ts'
import styles from './style.module.css'

const ACCEPT = 'image/png,image/jpeg,image/webp'
/** The body fields the form shows: a problem of one of them goes under it (lib/field-errors.ts). */
const FIELDS = ['name', 'description', 'category', 'price', 'stock', 'lowStockThreshold'] as const

interface Draft {
  name: string, description: string, category: string, price: string, stock: string, lowStockThreshold: string, status: ProductStatus, isAvailable: boolean
}

const draftOf = (product: Product | null, currency: string): Draft => ({
  name: product?.name ?? '',
  description: product?.description ?? '',
  category: product?.category ?? '',
  price: product === null ? '' : toMajorInput(product.price, currency),
  stock: String(product?.stock ?? 0),
  lowStockThreshold: String(product?.lowStockThreshold ?? 5),
  status: product?.status ?? 'ACTIVE',
  isAvailable: product?.isAvailable ?? true
})

function ProductForm ({ product, business, notice }: { product: Product | null, business: MerchantBusiness, notice: string | null }) {
  const { api } = useSession()
  const { route } = useLocation()
  const save = useAction()
  const remove = useAction()
  const [draft, setDraft] = useState<Draft>(() => draftOf(product, business.currency))
  /** The form's own price check, before anything is sent: said under the price field. */
  const [priceProblem, setPriceProblem] = useState<string | null>(null)
  const [saved, setSaved] = useState<Product | null>(product)
  const [message, setMessage] = useState<string | null>(notice)
  const file = useRef<HTMLInputElement>(null)
  const status = useRef<HTMLDivElement>(null)
  const priceInput = useRef<HTMLInputElement>(null)
  useEffect(() => { if (message !== null) status.current?.focus() }, [message])

  const field = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }))
  const text = (key: 'name' | 'description' | 'category' | 'price' | 'stock' | 'lowStockThreshold') =>
    (e: Event) => field(key)((e.currentTarget as HTMLInputElement).value)

  async function submit (e: Event) {
    e.preventDefault()
    setMessage(null)
    const price = parseMoney(draft.price, business.currency)
    if (price === null) {
      save.clear()
      setPriceProblem(`Enter an amount in ${business.currency}, like ${currencyDigits(business.currency) === 0 ? '1200' : '12.50'}.`)
      priceInput.current?.focus()
      return
    }
    setPriceProblem(null)
    const body = {
      name: draft.name.trim(), description: draft.description, category: draft.category.trim(), price,
      stock: Number(draft.stock), lowStockThreshold: Number(draft.lowStockThreshold), status: draft.status, isAvailable: draft.isAvailable
    }
    const picture = file.current?.files?.[0]
    const result = await save.run(async () => {
      let next = saved === null ? await api.post<Product>('/merchant/products', body) : await api.patch<Product>(`/merchant/products/${saved.id}`, body)
      if (picture !== undefined) {
        // a new product exists before its picture: if the upload fails, the product stays, without a picture
        setSaved(next)
        const form = new FormData()
        form.append('file', picture)
        next = await api.upload<Product>(`/merchant/products/${next.id}/image`, form)
      }
      return next
    })
    if (result === null) return
    if (file.current !== null) file.current.value = ''
    if (saved === null) {
      route(`/admin/products/${result.id}?created=1`)
      return
    }
    setSaved(result)
    setMessage(`${result.name} saved`)
  }

  async function del () {
    if (saved === null) return
    if (await remove.run(async () => { await api.delete(`/merchant/products/${saved.id}`); return true }) !== null) {
      route(`/admin/products?deleted=${encodeURIComponent(saved.name)}`)
    }
  }

  const digits = currencyDigits(business.currency)
  // the server's problems go under their fields too ("Must be <= 1000000."), the form's price check first
  const byField: Partial<Record<string, string>> = { ...problemsByField(save.problems) }
  if (priceProblem !== null) byField.price = priceProblem
  /** aria-invalid and the error's id (after the hint, if any) for a field with a problem. */
  const invalid = (name: typeof FIELDS[number], hint?: string) => {
    const describedBy = [hint, byField[name] === undefined ? undefined : `product-${name}-error`].filter((id) => id !== undefined).join(' ')
    return { 'aria-invalid': byField[name] === undefined ? undefined : true, 'aria-describedby': describedBy === '' ? undefined : describedBy }
  }
  return (
    <>
      <div ref={status} tabIndex={-1}>{message !== null && <Notice>{message}</Notice>}</div>
      <form class={`panel ${styles.form}`} onSubmit={(e) => { void submit(e) }} noValidate={false}>
        <div class={styles.field}>
          <label>Name<input value={draft.name} required maxLength={200} onInput={text('name')} {...invalid('name')} /></label>
          <FieldError id='product-name-error' message={byField.name} />
        </div>
        <div class={styles.field}>
          <label>Description<textarea rows={3} value={draft.description} maxLength={5000} onInput={text('description')} {...invalid('description')} /></label>
          <FieldError id='product-description-error' message={byField.description} />
        </div>
        <div class={styles.row}>
          <div class={styles.field}>
            <label>Price ({business.currency})
              <input
                ref={priceInput} value={draft.price} required inputMode='decimal' {...invalid('price', 'price-hint')}
                onInput={(e) => { text('price')(e); setPriceProblem(null) }}
              />
              <span id='price-hint' class={styles.hint}>In {business.currency}, for example {digits === 0 ? '1200' : '12.50'}</span>
            </label>
            <FieldError id='product-price-error' message={byField.price} />
          </div>
          <div class={styles.field}>
            <label>Category<input value={draft.category} maxLength={100} onInput={text('category')} {...invalid('category')} /></label>
            <FieldError id='product-category-error' message={byField.category} />
          </div>
        </div>
        <div class={styles.row}>
          <div class={styles.field}>
            <label>Stock<input type='number' min={0} max={1000000} step={1} required value={draft.stock} onInput={text('stock')} {...invalid('stock')} /></label>
            <FieldError id='product-stock-error' message={byField.stock} />
          </div>
          <div class={styles.field}>
            <label>Low-stock threshold
              <input type='number' min={0} max={1000000} step={1} required value={draft.lowStockThreshold} onInput={text('lowStockThreshold')} {...invalid('lowStockThreshold', 'threshold-hint')} />
              <span id='threshold-hint' class={styles.hint}>Home lists it, and apps hear about it, at or below this</span>
            </label>
            <FieldError id='product-lowStockThreshold-error' message={byField.lowStockThreshold} />
          </div>
        </div>
        <div class={styles.row}>
          <label>Status
            <select value={draft.status} onChange={(e) => field('status')((e.currentTarget as HTMLSelectElement).value as ProductStatus)}>
              {PRODUCT_STATUSES.map((s) => <option key={s} value={s}>{PRODUCT_STATUS_LABEL[s]}</option>)}
            </select>
          </label>
          <label class={styles.check}>
            <input type='checkbox' checked={draft.isAvailable} onChange={(e) => field('isAvailable')((e.currentTarget as HTMLInputElement).checked)} />
            Available to order
          </label>
        </div>
        <div class={styles.picture}>
          {saved !== null && saved.imageUrl !== '' && <img src={saved.imageUrl} alt={`Picture of ${saved.name}`} data-testid='product-picture' />}
          <label>{saved?.imageUrl === '' || saved === null ? 'Picture' : 'Replace the picture'}
            <input ref={file} type='file' accept={ACCEPT} aria-describedby='picture-hint' />
            <span id='picture-hint' class={styles.hint}>PNG, JPEG or WebP, at most 1 MB</span>
          </label>
        </div>
        {/* a problem a field shows is not repeated here: only what no field of the form can show */}
        <ErrorMessage message={save.error} problems={save.problems} marked={allShown(save.problems, FIELDS)} />
        <div class={styles.actions}>
          <button type='submit' disabled={save.busy}>{save.busy ? 'Saving…' : saved === null ? 'Create product' : 'Save changes'}</button>
          <a class='button secondary' href='/admin/products'>Back to products</a>
        </div>
      </form>
      {saved !== null && (
        <div class={styles.danger}>
          <ConfirmStep label='Delete' confirmLabel='Delete product' title={`Delete ${saved.name}`} busy={remove.busy} error={remove.error} onConfirm={() => { void del() }}>
            Delete <strong>{saved.name}</strong>? It leaves your store and its reviews go with it; past orders keep their lines. This cannot be undone.
          </ConfirmStep>
        </div>
      )}
    </>
  )
}

/** /admin/products/new and /admin/products/:id: create or edit a product, its picture, and delete it after a confirm step. */
export default function AdminProduct () {
  const { params } = useRoute()
  const { query } = useLocation()
  const { api } = useSession()
  const isNew = params.id === undefined || params.id === 'new'
  const product = useResource<Product>(isNew ? null : `product-${params.id}`, () => api.get(`/merchant/products/${encodeURIComponent(params.id)}`))
  return (
    <AdminShell>
      {(_installs, _reload, { business }) => (
        <section>
          <h1>{isNew ? 'New product' : product.data?.name ?? 'Product'}</h1>
          {!isNew && <ErrorMessage message={product.error} />}
          {business === null || (!isNew && product.data === null)
            ? (business === null || product.loading) && <Loading what='Loading product' />
            : <ProductForm key={product.data?.id ?? 'new'} product={isNew ? null : product.data} business={business} notice={query.created !== undefined ? 'Product created' : null} />}
        </section>
      )}
    </AdminShell>
  )
}
