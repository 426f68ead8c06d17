import type { Executor } from './client.ts'

type Bound<F> = { [K in keyof F]: F[K] extends (executor: Executor, ...args: infer A) => infer R ? (...args: A) => R : never }

/**
 * A service over one executor, from repository functions that take it first: `bindExecutor(db, { listPages })`
 * gives `listPages(businessId, query)`. A service joins a caller's transaction with `service.in(tx)`.
 */
export function bindExecutor<F extends Record<string, (executor: Executor, ...args: any[]) => unknown>> (executor: Executor, functions: F): Bound<F> {
  return Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, (...args: unknown[]) => fn(executor, ...args)])) as Bound<F>
}
