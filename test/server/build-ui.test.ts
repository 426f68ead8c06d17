import t from 'tap'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isCurrent, sourcesHash } from '../../server/build-ui.ts'

/** A checkout's UI sources in miniature: what ensureUiBuilt hashes to decide whether the build is current. */
function miniature (): string {
  const root = mkdtempSync(join(tmpdir(), 'app-platform-ui-'))
  mkdirSync(join(root, 'admin-ui/src/pages'), { recursive: true })
  mkdirSync(join(root, 'sdk/src/contract'), { recursive: true })
  writeFileSync(join(root, 'admin-ui/index.html'), '<div id="app"></div>')
  writeFileSync(join(root, 'admin-ui/src/pages/home.tsx'), 'export const Home = () => null')
  writeFileSync(join(root, 'sdk/src/contract/scopes.ts'), "export const SCOPES = ['read_orders']")
  writeFileSync(join(root, 'vite.config.ts'), 'export default {}')
  writeFileSync(join(root, 'package-lock.json'), '{}')
  return root
}

t.test('the admin UI is rebuilt when any of its sources changed since the build, and only then', async (t) => {
  const root = miniature()
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const built = sourcesHash(root)
  t.equal(sourcesHash(root), built, 'the same sources, the same hash')

  const dist = join(root, 'admin-ui/dist')
  t.notOk(isCurrent(built, dist), 'no build: build')
  mkdirSync(dist)
  writeFileSync(join(dist, 'index.html'), '<html></html>')
  t.notOk(isCurrent(built, dist), 'a build without its stamp (made before stamps): build again')
  writeFileSync(join(dist, '.sources'), built)
  t.ok(isCurrent(built, dist), 'a build of these sources: nothing to do')

  writeFileSync(join(root, 'admin-ui/src/pages/home.tsx'), 'export const Home = () => "edited"')
  t.not(sourcesHash(root), built, 'an edited screen')
  t.notOk(isCurrent(sourcesHash(root), dist), 'is rebuilt')
  writeFileSync(join(root, 'admin-ui/src/pages/home.tsx'), 'export const Home = () => null')
  writeFileSync(join(root, 'sdk/src/contract/scopes.ts'), "export const SCOPES = ['read_orders', 'read_pages']")
  t.not(sourcesHash(root), built, 'the SDK contract the UI imports')
  writeFileSync(join(root, 'sdk/src/contract/scopes.ts'), "export const SCOPES = ['read_orders']")
  writeFileSync(join(root, 'admin-ui/src/pages/new.tsx'), '')
  t.not(sourcesHash(root), built, 'a new file, even an empty one')
})

t.test("the checkout's own build is current after npm test's pre-step", async (t) => {
  t.ok(isCurrent(sourcesHash()), 'test/prepare.ts built the UI from these sources')
})
