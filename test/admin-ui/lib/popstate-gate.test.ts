import t from 'tap'
import { installDom } from '../dom.ts'

installDom()
// the router's listener, added after the gate's module as main.tsx orders them
const { claimPopState } = await import('../../../admin-ui/src/lib/popstate-gate.ts')
const routerSaw: unknown[] = []
globalThis.window.addEventListener('popstate', (event) => { routerSaw.push(event.state) })

const pop = (state: unknown) => globalThis.window.dispatchEvent(new PopStateEvent('popstate', { state }))

t.beforeEach(() => { routerSaw.length = 0 })

t.test('with no gate the router sees every popstate', async (t) => {
  pop(1)
  t.same(routerSaw, [1])
})

t.test('a gate that claims a popstate hides it from the router; one that declines lets it through', async (t) => {
  const gated: unknown[] = []
  const release = claimPopState((event) => { gated.push(event.state); return event.state === 'stay' })
  pop('stay')
  pop('leave')
  t.same(gated, ['stay', 'leave'])
  t.same(routerSaw, ['leave'])
  release()
  pop('stay')
  t.same(routerSaw, ['leave', 'stay'], 'released: the router sees it again')
})

t.test('releasing an old gate leaves a newer one in place', async (t) => {
  const releaseOld = claimPopState(() => true)
  const releaseNew = claimPopState(() => true)
  releaseOld()
  pop('x')
  t.same(routerSaw, [], 'the newer gate still claims')
  releaseNew()
  pop('y')
  t.same(routerSaw, ['y'])
})
