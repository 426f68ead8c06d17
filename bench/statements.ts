import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'

/**
 * Counts the statements this process sends to the database, whichever driver (node-postgres, or
 * PGlite, whose transactions are counted with their BEGIN and COMMIT), as their SQL text. It wraps
 * the drivers' prototypes, so it must be started before the database is opened. For the per-delivery
 * budget (bench/budget.ts, docs/benchmarks.md) and the tests that hold it.
 */
export function countStatements () {
  let sent: Statement[] = []
  const note = (query: unknown, values?: unknown) => {
    const text = typeof query === 'string' ? query : (query as { text?: string } | null)?.text
    const given = Array.isArray(values) ? values : (query as { values?: unknown[] } | null)?.values
    if (typeof text === 'string') sent.push({ text, values: Array.isArray(given) ? given : [] })
  }
  const pgQuery = pg.Client.prototype.query
  const { query, exec, transaction } = PGlite.prototype
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    note(args[0], args[1])
    return (pgQuery as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof pgQuery
  PGlite.prototype.query = async function (this: PGlite, ...args: Parameters<PGlite['query']>) {
    note(args[0], args[1])
    return await query.apply(this, args)
  } as PGlite['query']
  PGlite.prototype.exec = async function (this: PGlite, ...args: Parameters<PGlite['exec']>) {
    note(args[0])
    return await exec.apply(this, args)
  }
  PGlite.prototype.transaction = async function <T>(this: PGlite, callback: Parameters<PGlite['transaction']>[0]) {
    note('BEGIN')
    try {
      return await transaction.call(this, async (tx) => await callback({
        ...tx,
        get closed () { return tx.closed },
        query: async (...args: Parameters<typeof tx.query>) => { note(args[0], args[1]); return await tx.query(...args) },
        exec: async (...args: Parameters<typeof tx.exec>) => { note(args[0]); return await tx.exec(...args) }
      } as typeof tx)) as T
    } finally {
      note('COMMIT')
    }
  } as PGlite['transaction']
  return {
    /** The statements sent since the last take, and starts afresh. */
    take (): Statement[] {
      const taken = sent
      sent = []
      return taken
    },
    stop (): void {
      pg.Client.prototype.query = pgQuery
      Object.assign(PGlite.prototype, { query, exec, transaction })
    }
  }
}

export interface Statement { text: string, values: unknown[] }

/** The kinds of statement a webhook delivery costs, told apart by the tables they touch. */
export function statementKind ({ text, values }: Statement): string {
  const t = text.toLowerCase().replace(/\s+/g, ' ').trim()
  if (t === 'begin' || t === 'commit' || t === 'rollback') return t
  if (t.includes('pgboss.')) return 'pg-boss'
  if (t.startsWith('select pg_notify(') && values[0] === 'console_live') return 'live tail'
  if (t.startsWith('select pg_notify(') && values[0] === 'outbox_events') return 'outbox wake'
  if (t.includes('insert into outbox_events')) return 'outbox insert'
  if (t.includes('with taken as')) return 'dispatch fan-out'
  // a group write with no success in it only stamps events
  if (t.includes('jsonb_to_recordset') && t.includes('webhook_attempts')) return values[0] === '[]' ? 'event stamp' : 'success write'
  if (t.includes('update outbox_events set dispatched_at')) return 'event stamp'
  if (t.includes('update webhook_deliveries d set attempts')) return 'claim'
  if (t.includes('webhook_deliveries') || t.includes('webhook_attempts')) return 'delivery record'
  if (t.includes('outbox_events')) return 'outbox read'
  if (t.includes('app_counters') || t.includes('counters')) return 'counters'
  return 'other'
}

/** How many statements of each kind, in order of first appearance. */
export function tally (statements: Statement[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const statement of statements) {
    const kind = statementKind(statement)
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}
