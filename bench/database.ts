import pg from 'pg'

/**
 * Runs `fn` on a fresh database `name` on the PostgreSQL server at `serverUrl`, dropped afterwards
 * (a leftover of an interrupted run is dropped first). Answers null when no server answers there.
 */
export async function withScratchDatabase<T> (serverUrl: string, name: string, fn: (url: string) => Promise<T>): Promise<T | null> {
  const admin = new pg.Client({ connectionString: serverUrl })
  try {
    await admin.connect()
  } catch {
    return null
  }
  try {
    await admin.query(`drop database if exists "${name}" with (force)`)
    await admin.query(`create database "${name}"`)
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    return await fn(url.toString())
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`)
    await admin.end()
  }
}
