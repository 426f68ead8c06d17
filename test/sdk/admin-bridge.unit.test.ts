import t from 'tap'
import {
  ADMIN_CONFIRM_CHARGE, ADMIN_NAVIGATE, ADMIN_READY, ADMIN_RESIZE, ADMIN_SESSION_TOKEN_REQUEST, ADMIN_TOAST, MAX_ADMIN_HEIGHT, MAX_TOAST_LENGTH,
  MIN_ADMIN_HEIGHT,
  adminBridge, clampAdminHeight, parseAdminFrameMessage, type FrameWindow
} from '../../sdk/src/browser.ts'

t.test('parseAdminFrameMessage: what the admin panel accepts from an admin page (DESIGN §14)', async (t) => {
  t.same(parseAdminFrameMessage({ type: ADMIN_READY }), { type: ADMIN_READY })
  t.same(parseAdminFrameMessage({ type: ADMIN_RESIZE, height: 900.2 }), { type: ADMIN_RESIZE, height: 900.2 })
  t.same(parseAdminFrameMessage({ type: ADMIN_TOAST, message: 'Saved' }), { type: ADMIN_TOAST, message: 'Saved', kind: 'info' }, 'kind defaults to info')
  t.same(parseAdminFrameMessage({ type: ADMIN_TOAST, message: 'x'.repeat(1000), kind: 'error' }), { type: ADMIN_TOAST, message: 'x'.repeat(MAX_TOAST_LENGTH), kind: 'error' }, 'long toasts are cut')
  t.same(parseAdminFrameMessage({ type: ADMIN_NAVIGATE, pageId: 'reports' }), { type: ADMIN_NAVIGATE, pageId: 'reports' })
  t.same(parseAdminFrameMessage({ type: ADMIN_CONFIRM_CHARGE, chargeId: 'sub_a1B2', url: 'https://evil.example' }), { type: ADMIN_CONFIRM_CHARGE, chargeId: 'sub_a1B2' }, 'a charge id, never a URL')
  for (const chargeId of ['inv_1', 'sub_../../auth', 'https://evil.example', '', 7, `sub_${'a'.repeat(61)}`]) {
    t.equal(parseAdminFrameMessage({ type: ADMIN_CONFIRM_CHARGE, chargeId }), null, `refused: ${String(chargeId)}`)
  }
  t.same(parseAdminFrameMessage({ type: ADMIN_SESSION_TOKEN_REQUEST }), { type: ADMIN_SESSION_TOKEN_REQUEST })
  t.same(parseAdminFrameMessage({ type: ADMIN_READY, version: 2, extra: { a: 1 } }), { type: ADMIN_READY }, 'unknown fields are ignored and dropped')
  t.same(parseAdminFrameMessage({ type: ADMIN_TOAST, message: 'Hi', kind: 'info', icon: 'party' }), { type: ADMIN_TOAST, message: 'Hi', kind: 'info' })
  for (const [name, data] of [
    ['not an object', 'service:ready'], ['null', null], ['an array', [ADMIN_READY]], ['an unknown type', { type: 'service:explode' }],
    ['a height that is not a number', { type: ADMIN_RESIZE, height: '900' }], ['an infinite height', { type: ADMIN_RESIZE, height: Infinity }],
    ['an empty toast', { type: ADMIN_TOAST, message: '' }], ['a toast kind not in the protocol', { type: ADMIN_TOAST, message: 'x', kind: 'success' }],
    ['a navigate without pageId', { type: ADMIN_NAVIGATE }], ['a long pageId', { type: ADMIN_NAVIGATE, pageId: 'p'.repeat(65) }],
    ['service:init (the panel sends it, never receives it)', { type: 'service:init' }]
  ] as const) t.equal(parseAdminFrameMessage(data), null, name)
})

t.test('clampAdminHeight: 200–4000 px, whole pixels', async (t) => {
  t.equal(clampAdminHeight(900.2), 901)
  t.equal(clampAdminHeight(10), MIN_ADMIN_HEIGHT)
  t.equal(clampAdminHeight(-5), MIN_ADMIN_HEIGHT)
  t.equal(clampAdminHeight(1e9), MAX_ADMIN_HEIGHT)
  t.equal(clampAdminHeight(Number.NaN), MIN_ADMIN_HEIGHT)
})

t.test('adminBridge (admin page side) posts to the admin origin only', async (t) => {
  const posted: Array<{ message: unknown, targetOrigin: string }> = []
  const parent = { postMessage: (message: unknown, targetOrigin: string) => { posted.push({ message, targetOrigin }) } }
  const win = Object.assign(new EventTarget(), { parent }) as unknown as FrameWindow
  const admin = 'https://admin.example.com'
  const bridge = adminBridge({ expectedOrigin: admin, window: win })
  bridge.ready()
  bridge.resize(812.4)
  bridge.toast('Exported')
  bridge.toast('Failed', 'error')
  bridge.navigate('settings')
  bridge.confirmCharge('pur_x9')
  t.same(posted.map((p) => p.message), [
    { type: ADMIN_READY }, { type: ADMIN_RESIZE, height: 813 }, { type: ADMIN_TOAST, message: 'Exported', kind: 'info' },
    { type: ADMIN_TOAST, message: 'Failed', kind: 'error' }, { type: ADMIN_NAVIGATE, pageId: 'settings' }, { type: ADMIN_CONFIRM_CHARGE, chargeId: 'pur_x9' }
  ])
  t.ok(posted.every((p) => p.targetOrigin === admin))
  t.ok(posted.every((p) => parseAdminFrameMessage(p.message) !== null), 'every message passes the panel’s validator')
  t.throws(() => adminBridge({ expectedOrigin: '*', window: win }), TypeError, 'never to any origin')
})
