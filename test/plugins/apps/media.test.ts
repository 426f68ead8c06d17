import t from 'tap'
import { sql } from 'drizzle-orm'
import { media } from '../../../server/db/schema/index.ts'
import { sniffImage } from '../../../plugins/apps/media.ts'
import { build, listen, registerUser, createApp } from '../../helper.ts'

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)])
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.alloc(32, 3)])

t.test('sniffImage trusts bytes, not names', async (t) => {
  t.equal(sniffImage(PNG), 'image/png')
  t.equal(sniffImage(JPEG), 'image/jpeg')
  t.equal(sniffImage(WEBP), 'image/webp')
  t.equal(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null)
  t.equal(sniffImage(Buffer.alloc(0)), null)
})

t.test('POST /developer/apps/:appId/media over real HTTP', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const upload = async (kind: string, bytes: Buffer, filename = 'image.png', type = 'image/png') => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename)
    const response = await fetch(`${base}/developer/apps/${created.id}/media?kind=${kind}`, { method: 'POST', headers: developer.auth, body: form })
    return { status: response.status, body: await response.json() as any }
  }

  t.test('an icon is stored and served with its sniffed type', async (t) => {
    const { status, body } = await upload('icon', PNG, 'icon.jpg', 'image/jpeg')
    t.equal(status, 201)
    t.match(body.url, /^\/media\/med_/)
    t.equal(body.app.iconUrl, body.url)
    const served = await fetch(`${base}${body.url}`)
    t.equal(served.status, 200)
    t.equal(served.headers.get('content-type'), 'image/png', 'the declared type was not trusted')
    t.equal(served.headers.get('x-content-type-options'), 'nosniff')
    t.same(Buffer.from(await served.arrayBuffer()), PNG)
  })

  t.test('up to 5 screenshots; the 6th is refused', async (t) => {
    for (const [i, bytes] of [PNG, JPEG, WEBP, PNG, JPEG].entries()) {
      const { status, body } = await upload('screenshot', bytes)
      t.equal(status, 201, `screenshot ${i + 1}`)
      t.equal(body.app.screenshots.length, i + 1)
    }
    const sixth = await upload('screenshot', PNG)
    t.equal(sixth.status, 400)
    t.match(sixth.body, { statusCode: 400, message: /at most 5 screenshots/ })
  })

  t.test('concurrent screenshot uploads cannot pass the cap together', async (t) => {
    const { app: fresh } = await createApp(app, developer)
    const send = async () => {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'shot.png')
      return (await fetch(`${base}/developer/apps/${fresh.id}/media?kind=screenshot`, { method: 'POST', headers: developer.auth, body: form })).status
    }
    const statuses = await Promise.all(Array.from({ length: 8 }, send))
    t.same(statuses.sort(), [201, 201, 201, 201, 201, 400, 400, 400], 'five stored, three refused')
    const shown = await app.inject({ method: 'GET', url: `/developer/apps/${fresh.id}`, headers: developer.auth })
    t.equal(shown.json().screenshots.length, 5)
    const [{ stored }] = await app.db.select({ stored: sql<number>`count(*)::int` }).from(media).where(sql`app_id = ${fresh.id}`)
    t.equal(stored, 5, 'no file stored for a refused upload')
  })

  t.test('non-images, oversized files and bad kinds are refused, nothing stored', async (t) => {
    const [{ before }] = await app.db.select({ before: sql<number>`count(*)::int` }).from(media)
    const text = await upload('icon', Buffer.from('just text, honestly'), 'fake.png', 'image/png')
    t.equal(text.status, 400)
    t.match(text.body.message, /not a PNG, JPEG or WebP/)
    const huge = await upload('icon', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]))
    t.equal(huge.status, 413)
    t.equal(huge.body.statusCode, 413)
    t.equal((await upload('banner', PNG)).status, 400)
    const json = await fetch(`${base}/developer/apps/${created.id}/media?kind=icon`, { method: 'POST', headers: { ...developer.auth, 'content-type': 'application/json' }, body: '{}' })
    t.equal(json.status, 400)
    const [{ after }] = await app.db.select({ after: sql<number>`count(*)::int` }).from(media)
    t.equal(after, before)
  })

  t.test('another developer cannot upload to my app; unknown media is 404', async (t) => {
    const other = await registerUser(app, 'DEVELOPER')
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'x.png')
    t.equal((await fetch(`${base}/developer/apps/${created.id}/media?kind=icon`, { method: 'POST', headers: other.auth, body: form })).status, 404)
    t.equal((await fetch(`${base}/media/med_nothing`)).status, 404)
  })
})
