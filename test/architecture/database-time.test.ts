import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

/**
 * The database's time is a type (server/clock.ts: DatabaseTime, databaseNow(), databaseNowPlus/Minus) and raw
 * queries name their rows: under plugins/ and server/ no SQL is passed off as a Date (`as unknown as Date`)
 * and no raw query answers `any` (`sql<any>`), which would let a row or a time be read as anything.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const REFUSED: Array<{ what: string, pattern: RegExp }> = [
  { what: 'a value cast to Date through unknown (a database time is DatabaseTime: databaseNow() and its intervals)', pattern: /\bas\s+unknown\s+as\s+Date\b/g },
  { what: 'a raw query typed any (name its row: sql<{ … }>)', pattern: /\bsql\s*<\s*any\s*>/g }
]

function sources (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path)
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : []
  })
}

/** Each refused pattern found in `text` (spread over lines too), as `line: what`. */
function refusals (text: string): string[] {
  const lineOf = (index: number) => text.slice(0, index).split('\n').length
  return REFUSED.flatMap(({ what, pattern }) => [...text.matchAll(pattern)].map((match) => `${lineOf(match.index)}: ${what}`))
}

t.test('plugins/ and server/ cast no SQL to Date and type no raw query any', async (t) => {
  const files = ['plugins', 'server'].flatMap((dir) => sources(join(ROOT, dir)))
  t.ok(files.length > 50, 'reads plugins/ and server/')
  const found = files.flatMap((file) => refusals(readFileSync(file, 'utf8')).map((hit) => `${relative(ROOT, file)}:${hit}`))
  t.same(found, [])
})

t.test('the check catches the plants, and only them', async (t) => {
  t.same(refusals("const lease = sql`now() + interval '1 second'` as unknown as Date\n"), ['1: ' + REFUSED[0].what])
  t.same(refusals('const at = (x as unknown\n  as Date)\n'), ['1: ' + REFUSED[0].what], 'split over lines')
  t.same(refusals('const [row] = await rows(db, sql<any>`select 1`)\n'), ['1: ' + REFUSED[1].what])
  t.same(refusals('const [row] = await rows(db, sql < any >`select 1`)\n'), ['1: ' + REFUSED[1].what])
  t.same(refusals('const [row] = await rows(db, sql<{ id: string }>`select id`)\nconst at = databaseNowPlus({ seconds: 1 })\nconst x = y as unknown as DateLike\n'), [])
})
