import { Type, type TUnsafe } from '@sinclair/typebox'

/** A string enum: `enum` in the JSON Schema (and OpenAPI), the literal union in TypeScript. */
export const StringEnum = <T extends string>(values: readonly T[], options: { description?: string, default?: T, title?: string } = {}): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options })
