import { and, eq, notInArray } from 'drizzle-orm'
import { apps, media } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { databaseNow } from '../../server/clock.ts'
import { badRequest } from './errors.ts'
import { MAX_SCREENSHOTS } from './schemas.ts'
import type { AppRow } from './app-row.ts'

/** Uploaded images live in the database, so every process serves them. */
async function storeMedia (executor: Executor, appId: string, contentType: string, bytes: Buffer): Promise<string> {
  const id = newId('med')
  await executor.insert(media).values({ id, appId, contentType, size: bytes.length, bytes })
  return `/media/${id}`
}

/**
 * Deletes the app's uploaded files that neither its icon nor its screenshots name any more (a replaced
 * icon, a screenshot taken off): an upload is only ever shown through those fields, so nothing piles up.
 * Runs in the transaction that changed them, after the app row is locked.
 */
export async function pruneMedia (tx: Executor, app: AppRow): Promise<void> {
  const referenced = [app.iconUrl ?? '', ...app.screenshots].flatMap((url) => [...url.matchAll(/\/media\/(med_[A-Za-z0-9]+)/g)].map((m) => m[1] as string))
  await tx.delete(media).where(referenced.length === 0 ? eq(media.appId, app.id) : and(eq(media.appId, app.id), notInArray(media.id, referenced)))
}

/**
 * Stores an uploaded icon or screenshot and points the app at it. The app row is locked first, so
 * concurrent uploads cannot together pass the screenshot cap (a read-then-write would).
 */
export async function addMedia (executor: Executor, app: AppRow, kind: 'icon' | 'screenshot', contentType: string, bytes: Buffer) {
  return await executor.transaction(async (tx) => {
    const [current] = await tx.select({ screenshots: apps.screenshots }).from(apps).where(eq(apps.id, app.id)).for('update')
    if (kind === 'screenshot' && current.screenshots.length >= MAX_SCREENSHOTS) throw badRequest('screenshot_limit', `An app has at most ${MAX_SCREENSHOTS} screenshots`)
    const url = await storeMedia(tx, app.id, contentType, bytes)
    const [updated] = await tx.update(apps)
      .set(kind === 'icon' ? { iconUrl: url, updatedAt: databaseNow() } : { screenshots: [...current.screenshots, url], updatedAt: databaseNow() })
      .where(eq(apps.id, app.id)).returning()
    await pruneMedia(tx, updated)
    return { url, app: updated }
  })
}

export async function mediaById (executor: Executor, id: string) {
  const [row] = await executor.select().from(media).where(eq(media.id, id)).limit(1)
  return row ?? null
}
