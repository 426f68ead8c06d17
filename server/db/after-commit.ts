/**
 * Work that must wait until a transaction has committed (Django's `on_commit`, Rails' `after_commit`),
 * such as waking other processes to read what it wrote. The database's `transaction` is wrapped
 * (trackCommits): each outermost transaction, and every savepoint inside it, shares one list of
 * callbacks, run once the outermost commits and dropped if it rolls back. A savepoint rolled back
 * inside a transaction that commits does not take its callbacks back: use this for work that is
 * harmless when there is nothing to do (a wake-up), not for effects.
 */
interface Commit { db: object, callbacks: Map<string, (db: any) => void> }

/**
 * A drizzle database or transaction, as far as this module needs it (client.ts imports this module, so
 * its types are not imported back).
 */
interface Transactional { transaction: (callback: (tx: any) => Promise<any>, config?: any) => Promise<any> }

const commits = new WeakMap<object, Commit>()
const tracked = new WeakSet<object>()

/** Wraps `db.transaction` so that afterCommit knows its transactions. */
export function trackCommits (db: Transactional): void {
  tracked.add(db)
  const transaction = db.transaction.bind(db)
  db.transaction = (async (callback, config) => {
    const commit: Commit = { db, callbacks: new Map() }
    const result = await transaction(async (tx: Transactional) => {
      follow(tx, commit)
      return await callback(tx)
    }, config)
    for (const run of commit.callbacks.values()) run(db)
    return result
  }) as Transactional['transaction']
}

/** `tx` and the savepoints opened in it belong to `commit`. */
function follow (tx: Transactional, commit: Commit): void {
  commits.set(tx, commit)
  const nested = tx.transaction.bind(tx)
  tx.transaction = (async (callback) => await nested(async (inner: Transactional) => {
    follow(inner, commit)
    return await callback(inner)
  })) as Transactional['transaction']
}

/**
 * Where `executor`'s writes become visible to other sessions:
 * - `transaction`: when a transaction of a tracked database commits (afterCommit can wait for it);
 * - `statement`: as each statement ends (a tracked database itself, outside any transaction);
 * - `unknown`: a transaction begun some other way, whose commit nothing here sees.
 */
export function commitsAt (executor: object): 'transaction' | 'statement' | 'unknown' {
  if (commits.has(executor)) return 'transaction'
  return tracked.has(executor) ? 'statement' : 'unknown'
}

/** The tracked database a transaction (or a savepoint in one) belongs to; undefined for anything else. */
export const databaseOf = (tx: object): object | undefined => commits.get(tx)?.db

/**
 * Runs `run` with the database once the transaction `tx` belongs to has committed, once per `key`
 * however many times it is asked in that transaction; never if it rolls back. Answers false, running
 * nothing, when `tx` is not a transaction of a tracked database (commitsAt).
 */
export function afterCommit<D> (tx: object, key: string, run: (db: D) => void): boolean {
  const commit = commits.get(tx)
  if (commit === undefined) return false
  if (!commit.callbacks.has(key)) commit.callbacks.set(key, run)
  return true
}
