import type { BusinessRow, PageRow } from '../commerce/service.ts'
import { embedState, type ActiveInstallation, type Settings } from '../installations/service.ts'
import { httpUrl } from './html.ts'
import type { StoreProduct } from './schemas.ts'
import type { CheckoutHooks } from '../checkout-hooks/index.ts'
import type { Commerce } from '../commerce/index.ts'
import type { Installations } from '../installations/index.ts'

export interface BlockView { id: string, name: string, src: string, origin: string, settings: Settings }
export interface ScriptView { embedType: string, src: string, origin: string, position: 'head' | 'body_end', settings: Settings }
export interface WidgetView { embedType: string, name: string, src: string, origin: string, position: 'bottom_right' | 'bottom_left' }

export interface StorefrontView {
  business: { id: string, name: string, slug: string, currency: string, locale: string }
  /** null: the business has no published page yet; the storefront still lists its products. */
  page: { slug: string, title: string } | null
  nav: Array<{ slug: string, title: string, current: boolean }>
  products: StoreProduct[]
  productTotal: number
  blocks: BlockView[]
  scripts: ScriptView[]
  widgets: WidgetView[]
  /** The admin origin allowed to send SERVICE_BLOCK_UPDATE (editor preview), or null. */
  previewOrigin: string | null
}

export interface ViewInput {
  business: BusinessRow
  page: PageRow | null
  pages: PageRow[]
  products: { data: StoreProduct[], total: number }
  installations: Map<string, ActiveInstallation>
  previewOrigin: string | null
}

/**
 * What the page shows. A block appears only when its installation is active and its block extension
 * is active; embeds only when enabled on an active installation and still active in the manifest.
 * Uninstalled apps are absent from `installations`, so nothing of theirs can appear.
 */
export function storefrontView (input: ViewInput): StorefrontView {
  const { business, page, installations } = input
  const blocks: BlockView[] = []
  for (const block of page?.blocks ?? []) {
    const definition = installations.get(block.installationId)?.blocks.get(block.blockType)
    if (definition === undefined) continue
    const url = httpUrl(definition.renderUrl, { blockId: block.id, businessId: business.id })
    if (url === null) continue
    blocks.push({ id: block.id, name: definition.name, src: url.href, origin: url.origin, settings: block.settings })
  }

  const scripts: ScriptView[] = []
  const widgets: WidgetView[] = []
  for (const installation of installations.values()) {
    for (const embed of installation.embeds.values()) {
      const { enabled, settings } = embedState(installation, embed)
      if (!enabled) continue
      if (embed.kind === 'GLOBAL_SCRIPT' && embed.scriptUrl !== undefined && (embed.position === 'head' || embed.position === 'body_end')) {
        const url = httpUrl(embed.scriptUrl)
        if (url !== null) scripts.push({ embedType: embed.embedType, src: url.href, origin: url.origin, position: embed.position, settings })
      } else if (embed.kind === 'FLOATING_WIDGET' && embed.renderUrl !== undefined && (embed.position === 'bottom_right' || embed.position === 'bottom_left')) {
        const url = httpUrl(embed.renderUrl, { embedType: embed.embedType, businessId: business.id, settings: JSON.stringify(settings) })
        if (url !== null) widgets.push({ embedType: embed.embedType, name: embed.name, src: url.href, origin: url.origin, position: embed.position })
      }
    }
  }

  return {
    business: { id: business.id, name: business.name, slug: business.slug, currency: business.currency, locale: business.locale },
    page: page === null ? null : { slug: page.slug, title: page.title },
    nav: input.pages.map((p) => ({ slug: p.slug, title: p.title, current: p.id === page?.id })),
    products: input.products.data,
    productTotal: input.products.total,
    blocks,
    scripts,
    widgets,
    previewOrigin: input.previewOrigin
  }
}

/** What the storefront needs of the others: the stores' catalogue and pages, the installed apps' blocks and embeds, the checkout with its hooks. */
export interface StorefrontNeeds {
  commerce: Pick<Commerce, 'businessBySlug' | 'listVisibleProducts' | 'createStoreReview' | 'pageById' | 'publishedPages' | 'getProductBySlug' | 'getOrder'>
  installations: Pick<Installations, 'activeExtensions'>
  checkoutHooks: Pick<CheckoutHooks, 'quote' | 'placeOrder'>
}
