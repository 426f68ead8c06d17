/**
 * The databases whose connections are the server's own (server/db/client.ts registers them): named
 * statements are parsed and planned once per connection there. Anything else (a transaction pooler in
 * front, a transaction's executor, PGlite) gets unnamed ones (server/db/rows.ts statementName).
 * A module of its own, so that client.ts and rows.ts import it and not each other.
 */

/**
 * How a raw query goes as a named statement on such a database (server/db/rows.ts namedRows): `target` is
 * its pool or a transaction's connection. Registered by client.ts, which has the driver (this module and
 * rows.ts do not import it: the unit tier's files reach them).
 */
export type NamedQuery = (target: unknown, name: string, text: string, values: unknown[]) => Promise<unknown[]>

const sessionsKept = new WeakMap<object, NamedQuery | null>()
export function keepsSessions (db: object, namedQuery: NamedQuery | null = null): void { sessionsKept.set(db, namedQuery) }
export const keptSessions = (executor: object): boolean => sessionsKept.has(executor)
export const namedQueryOf = (executor: object): NamedQuery | null => sessionsKept.get(executor) ?? null
