import t from 'tap'
import {
  BLOCK_INIT, BLOCK_READY, BLOCK_RESIZE, BLOCK_UPDATE, ADMIN_INIT, MAX_BLOCK_HEIGHT,
  clampBlockHeight, connectBlock, onAdminInit, parseAdminInitMessage, parseBlockFrameMessage, parseBlockHostMessage,
  requestSessionToken, parseAdminFrameMessage, ADMIN_SESSION_TOKEN, ADMIN_SESSION_TOKEN_REQUEST,
  type AdminInitMessage, type BlockInitMessage, type BlockUpdateMessage, type FrameWindow
} from '../../sdk/src/iframe.ts'

const NON_OBJECTS = [null, undefined, 0, 'SERVICE_BLOCK_INIT', true, [], ['SERVICE_BLOCK_INIT'], () => {}]

t.test('parseBlockHostMessage (INIT, UPDATE)', async (t) => {
  t.test('accepts good payloads', async (t) => {
    const init = { type: BLOCK_INIT, blockId: 'blk_1', settings: { title: 'Hi', color: '#ff0000', count: 3, show: true, tags: ['a'], nested: { x: null } } }
    t.same(parseBlockHostMessage(init), init)
    t.same(parseBlockHostMessage({ type: BLOCK_UPDATE, blockId: 'blk_1', settings: {} }), { type: BLOCK_UPDATE, blockId: 'blk_1', settings: {} })
  })

  t.test('rejects non-objects, unknown types, missing fields, wrong types and extra junk', async (t) => {
    for (const value of NON_OBJECTS) t.equal(parseBlockHostMessage(value), null, String(value))
    const bad: unknown[] = [
      { type: 'SERVICE_BLOCK_DESTROY', blockId: 'b', settings: {} },
      { type: BLOCK_READY },
      { type: BLOCK_INIT, settings: {} },
      { type: BLOCK_INIT, blockId: 'b' },
      { blockId: 'b', settings: {} },
      { type: BLOCK_INIT, blockId: '', settings: {} },
      { type: BLOCK_INIT, blockId: 7, settings: {} },
      { type: BLOCK_INIT, blockId: 'b', settings: null },
      { type: BLOCK_INIT, blockId: 'b', settings: [] },
      { type: BLOCK_INIT, blockId: 'b', settings: 'x' },
      { type: BLOCK_INIT, blockId: 'b', settings: { when: new Date() } },
      { type: BLOCK_INIT, blockId: 'b', settings: { n: Number.NaN } },
      { type: BLOCK_INIT, blockId: 'b', settings: { f: () => 1 } },
      { type: BLOCK_UPDATE, blockId: 'b', settings: {}, extra: 'junk' },
      { type: BLOCK_INIT.toLowerCase(), blockId: 'b', settings: {} }
    ]
    for (const value of bad) t.equal(parseBlockHostMessage(value), null, JSON.stringify(value) ?? String(value))
    const deep: Record<string, unknown> = {}
    let cursor = deep
    for (let i = 0; i < 40; i++) { cursor.next = {}; cursor = cursor.next as Record<string, unknown> }
    t.equal(parseBlockHostMessage({ type: BLOCK_INIT, blockId: 'b', settings: deep }), null, 'absurdly deep settings')
    t.equal(parseBlockHostMessage(Object.assign(Object.create({ inherited: true }), { type: BLOCK_INIT, blockId: 'b', settings: {} })), null, 'class instance')
  })
})

t.test('parseBlockFrameMessage (READY, RESIZE)', async (t) => {
  t.same(parseBlockFrameMessage({ type: BLOCK_READY }), { type: BLOCK_READY })
  t.same(parseBlockFrameMessage({ type: BLOCK_RESIZE, height: 250 }), { type: BLOCK_RESIZE, height: 250 })
  t.same(parseBlockFrameMessage({ type: BLOCK_RESIZE, height: 9000 }), { type: BLOCK_RESIZE, height: 9000 }, 'valid request; the host clamps')
  for (const value of NON_OBJECTS) t.equal(parseBlockFrameMessage(value), null, String(value))
  const bad: unknown[] = [
    { type: BLOCK_READY, blockId: 'junk' },
    { type: BLOCK_RESIZE },
    { type: BLOCK_RESIZE, height: '200' },
    { type: BLOCK_RESIZE, height: -1 },
    { type: BLOCK_RESIZE, height: Number.POSITIVE_INFINITY },
    { type: BLOCK_RESIZE, height: Number.NaN },
    { type: BLOCK_RESIZE, height: 100, width: 100 },
    { type: BLOCK_INIT, blockId: 'b', settings: {} }
  ]
  for (const value of bad) t.equal(parseBlockFrameMessage(value), null, JSON.stringify(value) ?? String(value))
})

t.test('clampBlockHeight', async (t) => {
  t.equal(MAX_BLOCK_HEIGHT, 400)
  t.equal(clampBlockHeight(120.2), 121)
  t.equal(clampBlockHeight(401), 400)
  t.equal(clampBlockHeight(-5), 0)
  t.equal(clampBlockHeight(Number.NaN), 0)
})

t.test('parseAdminInitMessage (service:init)', async (t) => {
  const good = { type: ADMIN_INIT, businessId: 'biz_1', businessName: 'Café Luna', role: 'MERCHANT', locale: 'fr', sessionToken: 'h.p.s' }
  t.same(parseAdminInitMessage(good), good)
  t.same(parseAdminInitMessage({ ...good, extra: 1 }), good, 'unknown fields are ignored, so the bridge can grow (DESIGN §14)')
  for (const value of NON_OBJECTS) t.equal(parseAdminInitMessage(value), null, String(value))
  const bad: unknown[] = [
    { ...good, type: 'service:ready' },
    { ...good, sessionToken: '' },
    { ...good, businessId: '' },
    { ...good, businessId: 42 },
    { ...good, businessName: null },
    { ...good, role: ['MERCHANT'] },
    { ...good, locale: undefined },
    (({ locale: _l, ...rest }) => rest)(good)
  ]
  for (const value of bad) t.equal(parseAdminInitMessage(value), null, JSON.stringify(value))
})

/** A stand-in for the browser's `window` inside an iframe: an EventTarget with a parent that records posts. */
function frameWindow () {
  const posted: Array<{ message: unknown, targetOrigin: string }> = []
  const parent = { postMessage: (message: unknown, targetOrigin: string) => { posted.push({ message, targetOrigin }) } }
  const target = new EventTarget()
  const win = Object.assign(target, { parent }) as unknown as FrameWindow
  const deliver = (data: unknown, { origin = 'https://platform.example.com', source = parent as unknown } = {}) => {
    target.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }))
  }
  return { win, parent, posted, deliver }
}

t.test('connectBlock (iframe side)', async (t) => {
  const { win, posted, deliver } = frameWindow()
  const inits: BlockInitMessage[] = []
  const updates: BlockUpdateMessage[] = []
  const block = connectBlock({ targetOrigin: 'https://platform.example.com', window: win, onInit: (m) => inits.push(m), onUpdate: (m) => updates.push(m) })
  t.same(posted, [{ message: { type: BLOCK_READY }, targetOrigin: 'https://platform.example.com' }], 'posts READY to the host origin')

  deliver({ type: BLOCK_UPDATE, blockId: 'blk_1', settings: { a: 1 } })
  t.equal(updates.length, 0, 'an UPDATE before INIT is ignored')
  deliver({ type: BLOCK_INIT, blockId: 'blk_1', settings: { a: 1 } }, { origin: 'https://evil.example.com' })
  deliver({ type: BLOCK_INIT, blockId: 'blk_1', settings: { a: 1 } }, { source: {} })
  deliver({ type: BLOCK_INIT, blockId: 'blk_1', settings: { a: 1 }, junk: true })
  t.equal(inits.length, 0, 'wrong origin, a source other than window.parent, or an invalid payload are ignored')

  deliver({ type: BLOCK_INIT, blockId: 'blk_1', settings: { a: 1 } })
  deliver({ type: BLOCK_UPDATE, blockId: 'blk_2', settings: { a: 2 } })
  deliver({ type: BLOCK_UPDATE, blockId: 'blk_1', settings: { a: 3 } })
  t.same(inits, [{ type: BLOCK_INIT, blockId: 'blk_1', settings: { a: 1 } }])
  t.same(updates, [{ type: BLOCK_UPDATE, blockId: 'blk_1', settings: { a: 3 } }], 'updates for another block are ignored')

  block.resize(180.4)
  t.same(posted.at(-1), { message: { type: BLOCK_RESIZE, height: 181 }, targetOrigin: 'https://platform.example.com' })
  t.throws(() => block.resize(-1), RangeError)
  block.disconnect()
  deliver({ type: BLOCK_UPDATE, blockId: 'blk_1', settings: { a: 4 } })
  t.equal(updates.length, 1, 'nothing after disconnect')
  t.throws(() => connectBlock({ targetOrigin: '', window: win, onInit: () => {} }), TypeError)
})

t.test('onAdminInit (admin page side)', async (t) => {
  const { win, deliver } = frameWindow()
  const received: AdminInitMessage[] = []
  const stop = onAdminInit((m) => received.push(m), { expectedOrigin: 'https://admin.example.com', window: win })
  const init = { type: ADMIN_INIT, businessId: 'biz_1', businessName: 'Shop', role: 'MERCHANT', locale: 'en', sessionToken: 'h.p.s' }
  deliver(init, { origin: 'https://elsewhere.example.com' })
  deliver({ ...init, role: 7 }, { origin: 'https://admin.example.com' })
  deliver(init, { origin: 'https://admin.example.com', source: null })
  t.equal(received.length, 0)
  deliver(init, { origin: 'https://admin.example.com' })
  t.same(received, [init])
  stop()
  deliver(init, { origin: 'https://admin.example.com' })
  t.equal(received.length, 1)
  t.throws(() => onAdminInit(() => {}, { expectedOrigin: '*', window: win }), TypeError)
  t.throws(() => onAdminInit(() => {}, { expectedOrigin: 'https://admin.example.com' }), /no window/)
})

t.test('requestSessionToken (admin page side) and parseAdminFrameMessage (panel side)', async (t) => {
  const { win, posted, deliver } = frameWindow()
  const admin = 'https://admin.example.com'
  const pending = requestSessionToken({ expectedOrigin: admin, window: win })
  t.same(posted, [{ message: { type: ADMIN_SESSION_TOKEN_REQUEST }, targetOrigin: admin }], 'asks the parent, at the admin origin only')
  t.same(parseAdminFrameMessage(posted[0].message), { type: ADMIN_SESSION_TOKEN_REQUEST })
  t.equal(parseAdminFrameMessage({ type: 'service:init' }), null)
  deliver({ type: ADMIN_SESSION_TOKEN, sessionToken: 'from-elsewhere' }, { origin: 'https://evil.example' })
  deliver({ type: ADMIN_SESSION_TOKEN, sessionToken: 42 }, { origin: admin })
  deliver({ type: ADMIN_SESSION_TOKEN, sessionToken: 'fresh' }, { origin: admin })
  t.equal(await pending, 'fresh', 'only a valid answer from the admin origin counts')
  await t.rejects(requestSessionToken({ expectedOrigin: admin, window: win, timeoutMs: 10 }), /No session token/)
  await t.rejects(requestSessionToken({ expectedOrigin: '*', window: win }), TypeError)
})
