import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback } from 'fastify'

/**
 * How a capability meets the others (docs/architecture.md "Ports"): its plugin is registered with the
 * ports it needs, typed by the capability itself (each consumer's narrow view), and hands back its own
 * port through `expose`. No capability is a decorator of the fastify instance, so every dependency
 * between two capabilities is an import of the other's port type and a line of server/app.ts.
 */
export type CapabilityOptions<Needs, Port> = Needs & {
  /** Called once, during the plugin's registration, with what the others may call. */
  expose: (port: Port) => void
}

/** A capability's plugin, as `fastify-plugin` types it. */
export type Capability<Needs, Port> = FastifyPluginCallback<CapabilityOptions<Needs, Port>> | FastifyPluginAsync<CapabilityOptions<Needs, Port>>

/** Registers a capability with the ports it needs and returns its own, once its plugin has loaded. */
export async function mount<Needs extends object, Port> (app: FastifyInstance, capability: Capability<Needs, Port>, needs: Needs): Promise<Port> {
  let port: { value: Port } | null = null
  await app.register(capability, {
    ...needs,
    expose: (value: Port) => {
      if (port !== null) throw new Error(`${capability.name}: exposed its port twice`)
      port = { value }
    }
  })
  if (port === null) throw new Error(`${capability.name}: registered without exposing its port`)
  return (port as { value: Port }).value
}
