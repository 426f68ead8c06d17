import t from 'tap'
import { eq } from 'drizzle-orm'
import { media } from '../../../server/db/schema/index.ts'
import { build, listen, registerUser, createApp } from '../../helper.ts'

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)])

// issue #25 item 15: replacing an icon over and over must not pile files up in the database
t.test('uploaded media no longer named by the app is deleted', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const upload = async (kind: string, bytes: Buffer) => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'image.png')
    const response = await fetch(`${base}/developer/apps/${created.id}/media?kind=${kind}`, { method: 'POST', headers: developer.auth, body: form })
    t.equal(response.status, 201)
    return (await response.json() as { url: string }).url
  }
  const stored = async () => (await app.db.select({ id: media.id }).from(media).where(eq(media.appId, created.id))).map((row) => `/media/${row.id}`).sort()
  const served = async (url: string) => (await fetch(`${base}${url}`)).status

  t.test('a replaced icon is deleted, the new one served', async (t) => {
    const first = await upload('icon', PNG)
    for (let i = 0; i < 5; i++) await upload('icon', JPEG)
    const last = await upload('icon', PNG)
    t.same(await stored(), [last], 'one file for one icon, however often it was replaced')
    t.equal(await served(first), 404)
    t.equal(await served(last), 200)
  })

  t.test('a screenshot taken off the app is deleted; the others stay', async (t) => {
    const one = await upload('screenshot', PNG)
    const two = await upload('screenshot', JPEG)
    const icon = (await stored()).find((url) => url !== one && url !== two) as string
    const patched = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { screenshots: [two] } })
    t.equal(patched.statusCode, 200)
    t.same(await stored(), [icon, two].sort())
    t.equal(await served(one), 404)
    t.equal(await served(two), 200)
  })

  t.test('clearing the icon deletes its file', async (t) => {
    const patched = await app.inject({ method: 'PATCH', url: `/developer/apps/${created.id}`, headers: developer.auth, payload: { iconUrl: null, screenshots: [] } })
    t.equal(patched.statusCode, 200)
    t.same(await stored(), [])
  })
})
