import t from 'tap'
import { eq } from 'drizzle-orm'
import { appExtensions, apps } from '../../../../server/db/schema/index.ts'
import { build, registerUser, createApp } from '../../../helper.ts'

const block = (blockType: string, name = blockType) => ({ blockType, name, renderUrl: `https://app.example.com/blocks/${blockType}` })
const hook = { hookPoint: 'order.validate', url: '/hooks/validate' }

t.test('PUT /developer/apps/:appId/manifest', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const put = (manifest: unknown, query = '') => app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest${query}`, headers: developer.auth, payload: { manifest } })
  const extensions = async () => (await app.inject({ method: 'GET', url: `/developer/apps/${created.id}/extensions`, headers: developer.auth })).json().data as Array<{ kind: string, key: string, isActive: boolean, definition: Record<string, unknown> }>

  t.test('sync: create → update → remove (deactivated, kept) → re-add (reactivated)', async (t) => {
    const first = await put({ blocks: [block('hero'), block('reviews')], hooks: [hook] })
    t.equal(first.statusCode, 200)
    t.same(first.json().sync, {
      created: [{ kind: 'block', key: 'hero' }, { kind: 'block', key: 'reviews' }, { kind: 'hook', key: 'order.validate' }],
      updated: [], deactivated: [], reactivated: []
    })
    const hookRow = (await extensions()).find((e) => e.kind === 'hook')
    t.match(hookRow?.definition, { timeout: 5000, priority: 100, failurePolicy: 'open' }, 'hook defaults filled in')

    const idsBefore = (await app.db.select().from(appExtensions).where(eq(appExtensions.appId, created.id))).map((r) => r.id).sort()
    const second = await put({ blocks: [block('hero', 'Hero banner'), block('reviews')], hooks: [hook] })
    t.same(second.json().sync, { created: [], updated: [{ kind: 'block', key: 'hero' }], deactivated: [], reactivated: [] }, 'unchanged keys are not listed')
    const idsAfter = (await app.db.select().from(appExtensions).where(eq(appExtensions.appId, created.id))).map((r) => r.id).sort()
    t.same(idsAfter, idsBefore, 'updated in place: same rows')

    const third = await put({ blocks: [block('hero', 'Hero banner')] })
    t.same(third.json().sync.deactivated, [{ kind: 'block', key: 'reviews' }, { kind: 'hook', key: 'order.validate' }])
    const afterRemove = await extensions()
    t.equal(afterRemove.length, 3, 'nothing deleted')
    t.same(afterRemove.filter((e) => !e.isActive).map((e) => e.key).sort(), ['order.validate', 'reviews'])

    const fourth = await put({ blocks: [block('hero', 'Hero banner'), block('reviews')] })
    t.same(fourth.json().sync, { created: [], updated: [{ kind: 'block', key: 'reviews' }], deactivated: [], reactivated: [{ kind: 'block', key: 'reviews' }] })
    t.equal((await extensions()).find((e) => e.key === 'reviews')?.isActive, true)

    const [row] = await app.db.select().from(apps).where(eq(apps.id, created.id))
    t.same(row.manifest, { blocks: [block('hero', 'Hero banner'), block('reviews')] }, 'the manifest is stored')
  })

  t.test('?dryRun=true returns the diff and writes nothing', async (t) => {
    const before = await extensions()
    const [appBefore] = await app.db.select().from(apps).where(eq(apps.id, created.id))
    const preview = await put({ blocks: [block('hero', 'Hero banner'), block('faq')], adminPages: [{ pageId: 'stats', title: 'Stats', renderUrl: 'https://app.example.com/stats' }] }, '?dryRun=true')
    t.equal(preview.statusCode, 200)
    t.same(preview.json().sync, {
      created: [{ kind: 'block', key: 'faq' }, { kind: 'admin_page', key: 'stats' }], updated: [], deactivated: [{ kind: 'block', key: 'reviews' }], reactivated: []
    })
    t.equal(preview.json().dryRun, true)
    t.same(await extensions(), before, 'extensions untouched')
    const [appAfter] = await app.db.select().from(apps).where(eq(apps.id, created.id))
    t.same(appAfter.manifest, appBefore.manifest, 'manifest untouched')
  })

  t.test('a bad manifest is a 400 listing every problem, and nothing is written', async (t) => {
    const before = await extensions()
    const response = await put({ blocks: [block('new-one'), block('new-one')], hooks: [{ hookPoint: 'cart.updated', url: '/x' }] })
    t.equal(response.statusCode, 400)
    const body = response.json()
    t.match(body, { statusCode: 400, error: 'Bad Request', message: /^Invalid manifest: .*blockType.*; .*hookPoint/ })
    t.same(body.errors.map((e: { path: string }) => e.path), ['/blocks/1/blockType', '/hooks/0/hookPoint'])
    t.same(await extensions(), before)
    t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: {} })).statusCode, 400, 'the manifest key is required')
  })

  t.test('hooks need the app to have a webhook URL', async (t) => {
    const { app: noHooks } = await createApp(app, developer, { webhookUrl: undefined })
    const response = await app.inject({ method: 'PUT', url: `/developer/apps/${noHooks.id}/manifest`, headers: developer.auth, payload: { manifest: { hooks: [hook] } } })
    t.equal(response.statusCode, 400)
    t.match(response.json().message, /needs a webhookUrl/)
  })
})
