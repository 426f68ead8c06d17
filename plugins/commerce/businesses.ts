import { eq, inArray, sql } from 'drizzle-orm'
import { businesses, pages } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { fieldError, notFound } from './errors.ts'
import type { Business, BusinessPatchBody } from './schemas.ts'
import { serializeBusiness } from './serializers.ts'
import { rows } from '../../server/db/rows.ts'
import { databaseNow } from '../../server/clock.ts'
import { changedFields, recordActivity } from '../../server/activity.ts'

export function slugify (text: string): string {
  const slug = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48)
  return slug === '' ? 'item' : slug
}

/** First free slug among `base`, `base-2`, `base-3`, … then a random suffix. */
async function freeBusinessSlug (executor: Executor, name: string): Promise<string> {
  const base = slugify(name)
  for (let n = 1; n <= 5; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`
    const [taken] = await executor.select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, candidate)).limit(1)
    if (taken === undefined) return candidate
  }
  return `${base}-${newId('b').slice(2, 8)}`
}

export interface NewBusiness { name: string, ownerId: string, email: string, isSandbox: boolean }

/** Every business starts with a published, empty `home` page, so the theme editor has a page to open. */
export const HOME_PAGE = { slug: 'home', title: 'Home' } as const

/**
 * The business with the first free slug. Two sign-ups of the same name at the same moment may both find
 * a slug free: the second insert then takes nothing (ON CONFLICT DO NOTHING, which leaves the caller's
 * transaction usable) and tries a random suffix, instead of failing the sign-up with a unique violation.
 */
export async function createBusiness (executor: Executor, input: NewBusiness) {
  let slug = await freeBusinessSlug(executor, input.name)
  let business: typeof businesses.$inferSelect | undefined
  for (let attempt = 0; business === undefined; attempt++) {
    if (attempt > 0) slug = `${slugify(input.name)}-${newId('b').slice(2, 8)}`
    ;[business] = await executor.insert(businesses).values({
      id: newId('biz'),
      name: input.name,
      slug,
      ownerId: input.ownerId,
      email: input.email,
      isSandbox: input.isSandbox
    }).onConflictDoNothing({ target: businesses.slug }).returning()
    if (business === undefined && attempt >= 5) throw new Error(`createBusiness: no free slug for ${JSON.stringify(input.name)}`)
  }
  await executor.insert(pages).values({ id: newId('page'), businessId: business.id, ...HOME_PAGE, isPublished: true, blocks: [] })
  return business
}

export async function findBusiness (executor: Executor, id: string) {
  const [business] = await executor.select().from(businesses).where(eq(businesses.id, id)).limit(1)
  return business ?? null
}

/** Store names by business id, for screens that would otherwise show `biz_…` ids; an unknown id is left out. */
export async function businessNamesOf (executor: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return new Map()
  const found = await executor.select({ id: businesses.id, name: businesses.name }).from(businesses).where(inArray(businesses.id, wanted))
  return new Map(found.map((row) => [row.id, row.name]))
}

/** The public business profile (App API GET /business, merchant GET /merchant/business). */
export async function getBusinessProfile (executor: Executor, id: string): Promise<Business> {
  const business = await findBusiness(executor, id)
  if (business === null) throw notFound('business_not_found', 'Business')
  return serializeBusiness(business)
}

/** The slug stays: storefront URLs are built from it. An unknown time zone is a 400 (analytics groups days in it). */
export async function updateBusinessProfile (executor: Executor, id: string, patch: BusinessPatchBody): Promise<Business> {
  if (patch.timezone !== undefined) {
    // Ask PostgreSQL itself (in a savepoint, so a refusal does not abort the caller's transaction)
    const timezone = patch.timezone
    const known = await executor.transaction(async (tx) => await rows(tx, sql`select now() at time zone ${timezone} as t`)).then(() => true, () => false)
    if (!known) throw fieldError('business_timezone_unknown', '/timezone', `${JSON.stringify(patch.timezone)} is not a known IANA time zone`)
  }
  return await executor.transaction(async (tx) => {
    const [before] = await tx.select().from(businesses).where(eq(businesses.id, id)).limit(1).for('update')
    if (before === undefined) throw notFound('business_not_found', 'Business')
    const written = { ...patch, ...(patch.name !== undefined ? { name: patch.name.trim() } : {}) }
    const [row] = await tx.update(businesses).set({ ...written, updatedAt: databaseNow() }).where(eq(businesses.id, id)).returning()
    await recordActivity(tx, { businessId: id, action: 'settings.updated', resource: { type: 'settings', id }, changes: changedFields(before as unknown as Record<string, unknown>, written) })
    return serializeBusiness(row)
  })
}
