import type { FastifyInstance } from 'fastify'

/**
 * What a capability asks of one that boots after it (one that depends on it), through an interface the
 * asking capability defines: the later one provides it once, at its boot. The asker then never calls
 * the other's decorator, so no runtime cycle forms (test/architecture/boundaries.ts rule (e)).
 */
export interface Provided<T> {
  provide: (value: T) => void
  /** The provided interface; asking before anyone provided it is a wiring error. */
  readonly value: T
  readonly isProvided: boolean
}

/** `what` names the interface and who provides it, for the error when nobody did. */
export function provided<T> (what: string): Provided<T> {
  let value: T | undefined
  return {
    provide (given: T) {
      if (value !== undefined) throw new Error(`${what} is provided twice`)
      value = given
    },
    get value (): T {
      if (value === undefined) throw new Error(`${what} is not provided`)
      return value
    },
    get isProvided () { return value !== undefined }
  }
}

/** Fails the boot (at ready) when one of these was not provided: a capability is missing, not a merchant's request later. */
export function requireProvided (fastify: FastifyInstance, owner: string, slots: Record<string, { readonly isProvided: boolean }>): void {
  fastify.addHook('onReady', async () => {
    const missing = Object.entries(slots).filter(([, slot]) => !slot.isProvided).map(([name]) => name)
    if (missing.length > 0) throw new Error(`${owner}: nobody provides ${missing.join(', ')}`)
  })
}
