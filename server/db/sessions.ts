/**
 * The databases whose connections are the server's own (server/db/client.ts registers them): named
 * statements are parsed and planned once per connection there. Anything else (a transaction pooler in
 * front, a transaction's executor, PGlite) gets unnamed ones (server/db/rows.ts statementName).
 * A module of its own, so that client.ts and rows.ts import it and not each other.
 */
const sessionsKept = new WeakSet<object>()
export function keepsSessions (db: object): void { sessionsKept.add(db) }
export const keptSessions = (executor: object): boolean => sessionsKept.has(executor)
