import { types, type PGlite, type QueryOptions } from '@electric-sql/pglite'

/**
 * drizzle asks PGlite, with every query, to leave dates, times and intervals (and their arrays, and numeric
 * arrays) as the text the server sent: its `parsers` option. PGlite merges the parsers a query brings into
 * a copy of its own (318 of them) for each such query, which cost 100–250 µs a statement here, more than a
 * short insert itself (a statement without the option: 150–240 µs; with it: 260–650 µs). So the instance is
 * made to parse those types as text itself, and a query that brings no other parser than those goes without
 * the option (`parseTimesAsText`): the same answers, one copy less.
 */

/**
 * The types drizzle leaves as text (both drivers): timestamp, timestamptz, interval, date; numeric[], timestamp[],
 * timestamptz[], interval[], date[]. Their ids are PostgreSQL's, the same for node-postgres (client.ts).
 */
export const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182]
const asText = (value: string) => value

const TEXT_TIME_PARSERS = Object.fromEntries(TEXT_TYPES.map((type) => [type, asText]))

/**
 * PGlite's own parsers for those types (dates as Date objects): for the callers that use the connection as
 * node-postgres would answer it (pg-boss, through `executeSql`), given with each of their queries.
 */
export const DEFAULT_TIME_PARSERS = Object.fromEntries(TEXT_TYPES.flatMap((type) => types.parsers[type] === undefined ? [] : [[type, types.parsers[type]]]))

/**
 * The options without `parsers` when every parser they bring is for a type the instance already answers as
 * text (drizzle's); DEFAULT_TIME_PARSERS, which bring Dates back, go through.
 */
function withoutRedundantParsers (options: QueryOptions | undefined): QueryOptions | undefined {
  if (options?.parsers === undefined || options.parsers === DEFAULT_TIME_PARSERS) return options
  if (!Object.keys(options.parsers).every((key) => TEXT_TYPES.includes(Number(key)))) return options
  const { parsers: _dropped, ...rest } = options
  return rest
}

interface Queryable { query: PGlite['query'] }
function dropOn (target: Queryable): void {
  const query = target.query.bind(target)
  target.query = (async (text: string, params?: unknown[], options?: QueryOptions) => await query(text, params, withoutRedundantParsers(options))) as PGlite['query']
}

/**
 * Makes a started instance answer those types as text (its array parsers included, which PGlite sets up as it
 * starts), and drops drizzle's then redundant parsers on its queries and on those of its transactions.
 */
export function parseTimesAsText (client: PGlite): void {
  Object.assign(client.parsers, TEXT_TIME_PARSERS)
  dropOn(client)
  const transaction = client.transaction.bind(client)
  client.transaction = (async (callback) => await transaction(async (tx) => {
    dropOn(tx)
    return await callback(tx)
  })) as PGlite['transaction']
}
