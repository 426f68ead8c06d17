import fp from 'fastify-plugin'
import { createJobs, type Jobs } from '../jobs.ts'

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs
  }
}

/** Durable jobs (pg-boss) on the same database; started once every plugin has registered its workers. */
export default fp(async function jobsPlugin (fastify) {
  const runWorkers = fastify.config.processRole !== 'web'
  const jobs = createJobs(fastify.database, {
    runWorkers,
    onError: (error) => fastify.log.error({ err: error }, 'job queue error')
  })
  fastify.decorate('jobs', jobs)
  await jobs.start()
  fastify.addHook('onClose', async () => { await jobs.stop() })
}, { name: 'jobs', dependencies: ['db', 'config'] })
