/*
 * The storefront's block host (browser). For each block iframe: READY → INIT {blockId, settings},
 * RESIZE → height clamped to MAX_BLOCK_HEIGHT, and in the editor preview the admin's UPDATE is
 * forwarded to the block it names. A message is acted on only when it comes from the expected
 * window (event.source) AND origin, and its payload passes the SDK validators.
 */
import {
  BLOCK_INIT, BLOCK_READY, BLOCK_RESIZE, BLOCK_UPDATE, clampBlockHeight, parseBlockFrameMessage, parseBlockHostMessage,
  type BlockInitMessage, type BlockSettings, type BlockUpdateMessage
} from '../../../sdk/src/iframe.ts'

interface HostData { businessId: string, previewOrigin: string | null, blocks: Record<string, BlockSettings> }

interface Block { frame: HTMLIFrameElement, blockId: string, origin: string, initialized: boolean }

const DATA_ELEMENT_ID = 'storefront-data'

function readData (): HostData | null {
  const element = document.getElementById(DATA_ELEMENT_ID)
  if (element === null) return null
  try {
    return JSON.parse(element.textContent ?? '') as HostData
  } catch {
    return null
  }
}

function startHost (data: HostData): void {
  const settings = new Map(Object.entries(data.blocks))
  const blocks = new Map<HTMLIFrameElement, Block>()

  /** The block whose iframe window sent this message; looked up when it arrives (frames load after this script). */
  function blockOf (source: MessageEventSource | null): Block | null {
    if (source === null) return null
    for (const frame of document.querySelectorAll<HTMLIFrameElement>('iframe[data-block-id]')) {
      if (frame.contentWindow !== source) continue
      let block = blocks.get(frame)
      if (block === undefined) {
        const blockId = frame.dataset.blockId ?? ''
        const origin = frame.dataset.blockOrigin ?? ''
        if (blockId === '' || origin === '' || !settings.has(blockId)) return null
        block = { frame, blockId, origin, initialized: false }
        blocks.set(frame, block)
      }
      return block
    }
    return null
  }

  function post (block: Block, message: BlockInitMessage | BlockUpdateMessage): void {
    // targetOrigin is the render URL's origin: if the frame navigated elsewhere, the browser drops it.
    block.frame.contentWindow?.postMessage(message, block.origin)
  }

  function onFrameMessage (event: MessageEvent, block: Block): void {
    if (event.origin !== block.origin) return
    const message = parseBlockFrameMessage(event.data)
    if (message === null) return
    if (message.type === BLOCK_READY) {
      block.initialized = true
      post(block, { type: BLOCK_INIT, blockId: block.blockId, settings: settings.get(block.blockId) ?? {} })
    } else if (message.type === BLOCK_RESIZE) {
      block.frame.style.height = `${clampBlockHeight(message.height)}px`
    }
  }

  /** Editor preview: only the framing admin (its window and its origin) may change settings. */
  function onAdminMessage (event: MessageEvent): void {
    if (data.previewOrigin === null || window.parent === window || event.source !== window.parent || event.origin !== data.previewOrigin) return
    const message = parseBlockHostMessage(event.data)
    if (message === null || message.type !== BLOCK_UPDATE || !settings.has(message.blockId)) return
    settings.set(message.blockId, message.settings)
    for (const frame of document.querySelectorAll<HTMLIFrameElement>('iframe[data-block-id]')) {
      if (frame.dataset.blockId !== message.blockId) continue
      const block = blocks.get(frame)
      // A block not READY yet gets the new settings in its INIT.
      if (block?.initialized === true) post(block, { type: BLOCK_UPDATE, blockId: block.blockId, settings: message.settings })
    }
  }

  window.addEventListener('message', (event: MessageEvent) => {
    const block = blockOf(event.source)
    if (block !== null) onFrameMessage(event, block)
    else onAdminMessage(event)
  })
}

/** Where the customer's minimised widgets are remembered: per store (business id), in this browser only. */
const widgetStateKey = (businessId: string) => `app-platform.widgets.${businessId}`

function readMinimised (businessId: string): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(widgetStateKey(businessId)) ?? '[]')
    return new Set(Array.isArray(stored) ? stored.filter((x): x is string => typeof x === 'string') : [])
  } catch {
    return new Set() // storage off (private mode, blocked cookies): every widget starts open
  }
}

function writeMinimised (businessId: string, minimised: Set<string>): void {
  try {
    localStorage.setItem(widgetStateKey(businessId), JSON.stringify([...minimised]))
  } catch {
    // not remembered: the control still works for this page
  }
}

/** The platform's minimise control on each floating widget's dock (a button: Enter and Space work). */
function startWidgetDocks (businessId: string): void {
  const minimised = readMinimised(businessId)
  for (const dock of document.querySelectorAll<HTMLElement>('.widget-dock[data-widget]')) {
    const embedType = dock.dataset.widget ?? ''
    const toggle = dock.querySelector<HTMLButtonElement>('[data-widget-toggle]')
    if (toggle === null) continue
    const name = dock.getAttribute('aria-label') ?? ''
    const show = (small: boolean) => {
      dock.toggleAttribute('data-minimised', small)
      toggle.setAttribute('aria-expanded', String(!small))
      toggle.setAttribute('aria-label', `${small ? 'Open' : 'Minimise'} ${name}`)
    }
    show(minimised.has(embedType))
    toggle.addEventListener('click', () => {
      const small = !dock.hasAttribute('data-minimised')
      if (small) minimised.add(embedType)
      else minimised.delete(embedType)
      writeMinimised(businessId, minimised)
      show(small)
    })
  }
}

const data = readData()
if (data !== null) {
  startHost(data)
  // this script runs in <head>: the docks exist once the document is parsed
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => startWidgetDocks(data.businessId))
  else startWidgetDocks(data.businessId)
}
