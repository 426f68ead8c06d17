import type { Db, Executor, Tx } from './client.ts'

/**
 * Work that must wait until a transaction has committed (Django's `on_commit`, Rails' `after_commit`),
 * such as waking other processes to read what it wrote. The database's `transaction` is wrapped
 * (trackCommits): each outermost transaction, and every savepoint inside it, shares one list of
 * callbacks, run once the outermost commits and dropped if it rolls back. A savepoint rolled back
 * inside a transaction that commits does not take its callbacks back: use this for work that is
 * harmless when there is nothing to do (a wake-up), not for effects.
 */
interface Commit { db: Db, callbacks: Map<string, (db: Db) => void> }

const commits = new WeakMap<object, Commit>()
const tracked = new WeakSet<object>()

/** Wraps `db.transaction` so that afterCommit knows its transactions. */
export function trackCommits (db: Db): void {
  tracked.add(db)
  const transaction = db.transaction.bind(db)
  db.transaction = (async (callback, config) => {
    const commit: Commit = { db, callbacks: new Map() }
    const result = await transaction(async (tx) => {
      follow(tx, commit)
      return await callback(tx)
    }, config)
    for (const run of commit.callbacks.values()) run(db)
    return result
  }) as Db['transaction']
}

/** `tx` and the savepoints opened in it belong to `commit`. */
function follow (tx: Tx, commit: Commit): void {
  commits.set(tx, commit)
  const nested = tx.transaction.bind(tx)
  tx.transaction = (async <T>(callback: (inner: Tx) => Promise<T>) => await nested(async (inner) => {
    follow(inner, commit)
    return await callback(inner)
  })) as Tx['transaction']
}

/**
 * Where `executor`'s writes become visible to other sessions:
 * - `transaction`: when a transaction of a tracked database commits (afterCommit can wait for it);
 * - `statement`: as each statement ends (a tracked database itself, outside any transaction);
 * - `unknown`: a transaction begun some other way, whose commit nothing here sees.
 */
export function commitsAt (executor: Executor): 'transaction' | 'statement' | 'unknown' {
  if (commits.has(executor)) return 'transaction'
  return tracked.has(executor) ? 'statement' : 'unknown'
}

/**
 * Runs `run` with the database once the transaction `tx` belongs to has committed, once per `key`
 * however many times it is asked in that transaction; never if it rolls back. Answers false, running
 * nothing, when `tx` is not a transaction of a tracked database (commitsAt).
 */
export function afterCommit (tx: Executor, key: string, run: (db: Db) => void): boolean {
  const commit = commits.get(tx)
  if (commit === undefined) return false
  if (!commit.callbacks.has(key)) commit.callbacks.set(key, run)
  return true
}
