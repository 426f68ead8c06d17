/*
 * The UI extension protocols (spec, Extension iframes; DESIGN §12) as typed message unions, with
 * validators that check every field of an inbound payload, and the iframe-side helpers.
 * Browser code: no node imports here.
 */

export const BLOCK_READY = 'SERVICE_BLOCK_READY'
export const BLOCK_INIT = 'SERVICE_BLOCK_INIT'
export const BLOCK_UPDATE = 'SERVICE_BLOCK_UPDATE'
export const BLOCK_RESIZE = 'SERVICE_BLOCK_RESIZE'
export const ADMIN_INIT = 'service:init'
/** admin page → admin panel: asks for a fresh session token (they live at most 5 minutes). */
export const ADMIN_SESSION_TOKEN_REQUEST = 'service:session-token-request'
/** admin panel → admin page: the fresh session token. */
export const ADMIN_SESSION_TOKEN = 'service:session-token'

/** admin page → admin panel: loaded and listening (no service:ready within 5 s → the panel shows an error). */
export const ADMIN_READY = 'service:ready'
/** admin page → admin panel: the frame's height follows its content (clamped to 200–4000 px). */
export const ADMIN_RESIZE = 'service:resize'
/** admin page → admin panel: a toast in the admin's own UI. */
export const ADMIN_TOAST = 'service:toast'
/** admin page → admin panel: open another admin page of the same installation. */
export const ADMIN_NAVIGATE = 'service:navigate'
/**
 * admin page → admin panel: open the approval screen of one of this installation's charges (DESIGN §23:
 * the charge's confirmationUrl, which a sandboxed frame cannot navigate the admin to itself).
 */
export const ADMIN_CONFIRM_CHARGE = 'service:confirm-charge'
/** What a charge id looks like: `sub_…` or `pur_…`. */
export const CHARGE_ID_PATTERN = /^(sub|pur)_[A-Za-z0-9]{1,60}$/

/** The admin panel clamps admin page heights to this range (DESIGN §14). */
export const MIN_ADMIN_HEIGHT = 200
export const MAX_ADMIN_HEIGHT = 4000
/** Longest toast message the admin panel shows; longer ones are cut. */
export const MAX_TOAST_LENGTH = 300

/** The host clamps requested block heights to this many CSS pixels. */
export const MAX_BLOCK_HEIGHT = 400

export type BlockSettings = Record<string, unknown>

/** iframe → parent. */
export interface BlockReadyMessage { type: typeof BLOCK_READY }
export interface BlockResizeMessage { type: typeof BLOCK_RESIZE, height: number }
export type BlockFrameMessage = BlockReadyMessage | BlockResizeMessage

/** parent → iframe. */
export interface BlockInitMessage { type: typeof BLOCK_INIT, blockId: string, settings: BlockSettings }
export interface BlockUpdateMessage { type: typeof BLOCK_UPDATE, blockId: string, settings: BlockSettings }
export type BlockHostMessage = BlockInitMessage | BlockUpdateMessage

/** admin panel → admin page iframe, on load. */
export interface AdminInitMessage {
  type: typeof ADMIN_INIT
  businessId: string
  businessName: string
  /** The signed-in user's role in the business (DESIGN §24): `OWNER` or `STAFF`. */
  role: string
  locale: string
  /** A signed JWT saying who is looking (verify it on your backend with verifySessionToken). */
  sessionToken: string
}
export interface AdminSessionTokenRequestMessage { type: typeof ADMIN_SESSION_TOKEN_REQUEST }
export interface AdminReadyMessage { type: typeof ADMIN_READY }
export interface AdminResizeMessage { type: typeof ADMIN_RESIZE, height: number }
export type ToastKind = 'info' | 'error'
export interface AdminToastMessage { type: typeof ADMIN_TOAST, message: string, kind: ToastKind }
export interface AdminNavigateMessage { type: typeof ADMIN_NAVIGATE, pageId: string }
export interface AdminConfirmChargeMessage { type: typeof ADMIN_CONFIRM_CHARGE, chargeId: string }
/** Everything an admin page may send the admin panel. */
export type AdminFrameMessage =
  | AdminReadyMessage | AdminResizeMessage | AdminToastMessage | AdminNavigateMessage | AdminSessionTokenRequestMessage | AdminConfirmChargeMessage
export interface AdminSessionTokenMessage { type: typeof ADMIN_SESSION_TOKEN, sessionToken: string }

const MAX_SETTINGS_DEPTH = 16

function isPlainObject (value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Exactly these keys: extra fields are refused, so a confused or hostile sender is noticed. */
function hasExactKeys (value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value)
  return own.length === keys.length && keys.every((key) => Object.prototype.hasOwnProperty.call(value, key))
}

function isNonEmptyString (value: unknown): value is string {
  return typeof value === 'string' && value.length > 0
}

/** JSON data only (what the settings schema can describe): no functions, Dates, Maps, NaN, cycles. */
function isJsonValue (value: unknown, depth: number): boolean {
  if (depth > MAX_SETTINGS_DEPTH) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1))
  if (isPlainObject(value)) return Object.values(value).every((item) => isJsonValue(item, depth + 1))
  return false
}

function isSettings (value: unknown): value is BlockSettings {
  return isPlainObject(value) && isJsonValue(value, 0)
}

/** Validates a message a block iframe receives from its host (INIT or UPDATE); null when invalid. */
export function parseBlockHostMessage (data: unknown): BlockHostMessage | null {
  if (!isPlainObject(data)) return null
  if (data.type !== BLOCK_INIT && data.type !== BLOCK_UPDATE) return null
  if (!hasExactKeys(data, ['type', 'blockId', 'settings'])) return null
  if (!isNonEmptyString(data.blockId) || !isSettings(data.settings)) return null
  return { type: data.type, blockId: data.blockId, settings: data.settings }
}

/** Validates a message a host receives from a block iframe (READY or RESIZE); null when invalid. */
export function parseBlockFrameMessage (data: unknown): BlockFrameMessage | null {
  if (!isPlainObject(data)) return null
  if (data.type === BLOCK_READY) return hasExactKeys(data, ['type']) ? { type: BLOCK_READY } : null
  if (data.type !== BLOCK_RESIZE || !hasExactKeys(data, ['type', 'height'])) return null
  const height = data.height
  if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return null
  return { type: BLOCK_RESIZE, height }
}

/**
 * Validates the admin panel's service:init message; null when invalid. Unknown fields are ignored
 * (and dropped), so the bridge can grow without breaking pages built on an older SDK (DESIGN §14).
 */
export function parseAdminInitMessage (data: unknown): AdminInitMessage | null {
  if (!isPlainObject(data) || data.type !== ADMIN_INIT) return null
  const { businessId, businessName, role, locale, sessionToken } = data
  if (!isNonEmptyString(businessId) || typeof businessName !== 'string' || !isNonEmptyString(role) || !isNonEmptyString(locale) || !isNonEmptyString(sessionToken)) return null
  return { type: ADMIN_INIT, businessId, businessName, role, locale, sessionToken }
}

/** Validates the admin panel's service:session-token answer; null when invalid. */
export function parseAdminSessionTokenMessage (data: unknown): AdminSessionTokenMessage | null {
  if (!isPlainObject(data) || data.type !== ADMIN_SESSION_TOKEN || !isNonEmptyString(data.sessionToken)) return null
  return { type: ADMIN_SESSION_TOKEN, sessionToken: data.sessionToken }
}

/**
 * Validates what the admin panel accepts from an admin page; null otherwise. Unknown fields are
 * ignored and dropped (DESIGN §14), so a page built on a newer SDK still works.
 */
export function parseAdminFrameMessage (data: unknown): AdminFrameMessage | null {
  if (!isPlainObject(data)) return null
  switch (data.type) {
    case ADMIN_SESSION_TOKEN_REQUEST: return { type: ADMIN_SESSION_TOKEN_REQUEST }
    case ADMIN_READY: return { type: ADMIN_READY }
    case ADMIN_RESIZE:
      return typeof data.height === 'number' && Number.isFinite(data.height) ? { type: ADMIN_RESIZE, height: data.height } : null
    case ADMIN_TOAST: {
      const kind = data.kind === undefined ? 'info' : data.kind
      if (!isNonEmptyString(data.message) || (kind !== 'info' && kind !== 'error')) return null
      return { type: ADMIN_TOAST, message: data.message.slice(0, MAX_TOAST_LENGTH), kind }
    }
    case ADMIN_NAVIGATE:
      return isNonEmptyString(data.pageId) && data.pageId.length <= 64 ? { type: ADMIN_NAVIGATE, pageId: data.pageId } : null
    case ADMIN_CONFIRM_CHARGE:
      return typeof data.chargeId === 'string' && CHARGE_ID_PATTERN.test(data.chargeId) ? { type: ADMIN_CONFIRM_CHARGE, chargeId: data.chargeId } : null
    default: return null
  }
}

/** The height the admin panel applies to an admin page: whole pixels within MIN_ADMIN_HEIGHT–MAX_ADMIN_HEIGHT. */
export function clampAdminHeight (height: number): number {
  if (!Number.isFinite(height)) return MIN_ADMIN_HEIGHT
  return Math.min(MAX_ADMIN_HEIGHT, Math.max(MIN_ADMIN_HEIGHT, Math.ceil(height)))
}

/** The height a host applies for a resize request: whole pixels, 0 to MAX_BLOCK_HEIGHT. */
export function clampBlockHeight (height: number): number {
  if (!Number.isFinite(height) || height < 0) return 0
  return Math.min(MAX_BLOCK_HEIGHT, Math.ceil(height))
}

/** The parts of `window` the helpers use; defaults to the real one. */
export interface FrameWindow {
  parent: { postMessage (message: unknown, targetOrigin: string): void }
  addEventListener (type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener (type: 'message', listener: (event: MessageEvent) => void): void
}

function defaultWindow (): FrameWindow {
  if (typeof window === 'undefined') throw new Error('no window: pass the `window` option outside a browser')
  return window as unknown as FrameWindow
}

/** Accepts a message only from the parent window and, unless targetOrigin is '*', from that origin. */
function fromParent (event: MessageEvent, win: FrameWindow, targetOrigin: string): boolean {
  if (event.source !== (win.parent as unknown)) return false
  return targetOrigin === '*' || event.origin === targetOrigin
}

export interface ConnectBlockOptions {
  onInit: (message: BlockInitMessage) => void
  onUpdate?: (message: BlockUpdateMessage) => void
  /**
   * The host's origin (the storefront or admin origin, e.g. https://platform.example.com). Messages
   * are only posted to, and only accepted from, it. '*' disables the origin check (the parent
   * window check stays): use it only for blocks whose settings are not sensitive.
   */
  targetOrigin: string
  window?: FrameWindow
}

export interface BlockConnection {
  /** Asks the host for a new iframe height (the host clamps it to MAX_BLOCK_HEIGHT). */
  resize (height: number): void
  /** Stops listening. */
  disconnect (): void
}

/** Inside a block iframe: announces READY and delivers the host's INIT and UPDATE messages. */
export function connectBlock (options: ConnectBlockOptions): BlockConnection {
  const win = options.window ?? defaultWindow()
  const { targetOrigin } = options
  if (!isNonEmptyString(targetOrigin)) throw new TypeError('targetOrigin is required')
  let blockId: string | null = null

  const listener = (event: MessageEvent): void => {
    if (!fromParent(event, win, targetOrigin)) return
    const message = parseBlockHostMessage(event.data)
    if (message === null) return
    if (message.type === BLOCK_INIT) {
      blockId = message.blockId
      options.onInit(message)
    } else if (blockId !== null && message.blockId === blockId) {
      // An UPDATE before INIT, or for another block, is not for this frame.
      options.onUpdate?.(message)
    }
  }
  win.addEventListener('message', listener)
  const ready: BlockReadyMessage = { type: BLOCK_READY }
  win.parent.postMessage(ready, targetOrigin)

  return {
    resize (height: number): void {
      if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) throw new RangeError('height must be a non-negative number')
      const message: BlockResizeMessage = { type: BLOCK_RESIZE, height: Math.ceil(height) }
      win.parent.postMessage(message, targetOrigin)
    },
    disconnect (): void {
      win.removeEventListener('message', listener)
    }
  }
}

export interface AdminInitOptions {
  /** The admin panel's origin; service:init from any other origin is ignored. */
  expectedOrigin: string
  window?: FrameWindow
}

/** Inside an admin page iframe: calls `callback` with the validated service:init; returns an unsubscribe. */
export function onAdminInit (callback: (message: AdminInitMessage) => void, options: AdminInitOptions): () => void {
  const win = options.window ?? defaultWindow()
  if (!isNonEmptyString(options.expectedOrigin) || options.expectedOrigin === '*') {
    throw new TypeError('expectedOrigin must be the admin panel origin')
  }
  const listener = (event: MessageEvent): void => {
    if (!fromParent(event, win, options.expectedOrigin)) return
    const message = parseAdminInitMessage(event.data)
    if (message !== null) callback(message)
  }
  win.addEventListener('message', listener)
  return () => win.removeEventListener('message', listener)
}

/**
 * Inside an admin page iframe: asks the admin panel for a fresh session token and resolves with it
 * (rejects after `timeoutMs`, default 5 s). Only an answer from the parent at `expectedOrigin` counts.
 */
export async function requestSessionToken (options: AdminInitOptions & { timeoutMs?: number }): Promise<string> {
  const win = options.window ?? defaultWindow()
  if (!isNonEmptyString(options.expectedOrigin) || options.expectedOrigin === '*') {
    throw new TypeError('expectedOrigin must be the admin panel origin')
  }
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => { win.removeEventListener('message', listener); reject(new Error('No session token from the admin panel')) }, options.timeoutMs ?? 5000)
    const listener = (event: MessageEvent): void => {
      if (!fromParent(event, win, options.expectedOrigin)) return
      const message = parseAdminSessionTokenMessage(event.data)
      if (message === null) return
      clearTimeout(timer)
      win.removeEventListener('message', listener)
      resolve(message.sessionToken)
    }
    win.addEventListener('message', listener)
    const request: AdminSessionTokenRequestMessage = { type: ADMIN_SESSION_TOKEN_REQUEST }
    win.parent.postMessage(request, options.expectedOrigin)
  })
}

export interface AdminBridge {
  /** Tells the admin panel the page is loaded (send it once, early: the panel waits 5 s). */
  ready (): void
  /** Asks for a frame height (the panel clamps it to 200–4000 px). */
  resize (height: number): void
  /** Shows a toast in the admin panel. */
  toast (message: string, kind?: ToastKind): void
  /** Opens another admin page of the same app installation. */
  navigate (pageId: string): void
  /**
   * Sends the merchant to the approval screen of a charge this installation asked for (the `id` of
   * `billing.createSubscription` / `createPurchase`): the admin opens its own `/admin/charges/:id`.
   */
  confirmCharge (chargeId: string): void
}

/** Inside an admin page iframe: the messages to the admin panel, posted to its origin only. */
export function adminBridge (options: AdminInitOptions): AdminBridge {
  const win = options.window ?? defaultWindow()
  if (!isNonEmptyString(options.expectedOrigin) || options.expectedOrigin === '*') {
    throw new TypeError('expectedOrigin must be the admin panel origin')
  }
  const post = (message: AdminFrameMessage) => win.parent.postMessage(message, options.expectedOrigin)
  return {
    ready: () => post({ type: ADMIN_READY }),
    resize: (height) => post({ type: ADMIN_RESIZE, height: Math.ceil(height) }),
    toast: (message, kind = 'info') => post({ type: ADMIN_TOAST, message, kind }),
    navigate: (pageId) => post({ type: ADMIN_NAVIGATE, pageId }),
    confirmCharge: (chargeId) => post({ type: ADMIN_CONFIRM_CHARGE, chargeId })
  }
}
