import fp from 'fastify-plugin'
import { badRequest } from '../http-errors.ts'

/** Deepest nesting of objects and arrays a request body may have (DESIGN §21). */
export const MAX_JSON_DEPTH = 32

/** Whether `value` nests objects or arrays deeper than `limit` levels; iterative, so depth cannot exhaust the stack. */
export function deeperThan (value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    if (current === null || typeof current !== 'object') continue
    if (depth + 1 > limit) return true
    for (const child of Object.values(current)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}

/**
 * A parsed body nested deeper than MAX_JSON_DEPTH is a 400 before validation: validators, serialisers
 * and the database's JSON functions recurse, and a body 10 000 levels deep would reach them as a 500.
 */
export default fp(async function jsonDepth (fastify) {
  fastify.addHook('preValidation', async (request) => {
    if (deeperThan(request.body, MAX_JSON_DEPTH)) throw badRequest('json_too_deep', `body must not nest objects or arrays deeper than ${MAX_JSON_DEPTH} levels`)
  })
}, { name: 'json-depth' })
