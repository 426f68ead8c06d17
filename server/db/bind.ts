import type { Executor } from './client.ts'

type BoundTo<C, F> = { [K in keyof F]: F[K] extends (context: C, ...args: infer A) => infer R ? (...args: A) => R : never }

/**
 * A service from plain functions that take what they run against first: `bindTo(context, { install })`
 * gives `install(input)`. The context is the executor (`bindExecutor`), or, for a capability whose
 * functions also need its dependencies, `{ executor, ...deps }`. A function that only makes sense in a
 * caller's transaction types its context with `Tx`, so only the service's `in(tx)` can bind it.
 */
export function bindTo<C, F extends Record<string, (context: C, ...args: any[]) => unknown>> (context: C, functions: F): BoundTo<C, F> {
  return Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, (...args: unknown[]) => fn(context, ...args)])) as BoundTo<C, F>
}

/**
 * A service over one executor, from repository functions that take it first: `bindExecutor(db, { listPages })`
 * gives `listPages(businessId, query)`. A service joins a caller's transaction with `service.in(tx)`.
 */
type OverExecutor = Record<string, (executor: Executor, ...args: any[]) => unknown>

export function bindExecutor<F extends OverExecutor> (executor: Executor, functions: F): BoundTo<Executor, F> {
  return bindTo(executor, functions)
}
