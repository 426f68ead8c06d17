import t from 'tap'
import { build } from '../helper.ts'

t.test('jobs (pg-boss on the platform database)', async (t) => {
  const app = await build(t)

  t.test('runs a job that was sent', async (t) => {
    const seen: Array<{ greeting: string }> = []
    const done = new Promise<void>((resolve) => {
      void app.jobs.work<{ greeting: string }>('test.echo', async (job) => { seen.push(job.data); resolve() })
    })
    const id = await app.jobs.send('test.echo', { greeting: 'hello' })
    t.type(id, 'string')
    await done
    t.same(seen, [{ greeting: 'hello' }])
  })

  t.test('holds a delayed job until its time, then runs it', async (t) => {
    const sentAt = Date.now()
    const ranAt = new Promise<number>((resolve) => {
      void app.jobs.work('test.delayed', async () => { resolve(Date.now()) })
    })
    await app.jobs.send('test.delayed', {}, { startAfter: new Date(Date.now() + 1500) })
    t.ok(await ranAt - sentAt >= 1400, 'not before startAfter')
  })

  t.test('retries a failing job', async (t) => {
    let attempts = 0
    const succeeded = new Promise<void>((resolve) => {
      void app.jobs.work('test.flaky', async () => {
        attempts += 1
        if (attempts < 2) throw new Error('first attempt fails')
        resolve()
      })
    })
    await app.jobs.send('test.flaky', {}, { retryLimit: 2, retryDelay: 0 })
    await succeeded
    t.equal(attempts, 2)
  })
})

t.test('a web-only process sends jobs but never takes them', async (t) => {
  const app = await build(t, { env: { PROCESS_ROLE: 'web' } })
  let ran = false
  await app.jobs.work('test.web-only', async () => { ran = true })
  await app.jobs.send('test.web-only', {})
  await new Promise((resolve) => setTimeout(resolve, 1200))
  t.equal(ran, false)
  const { rows } = await app.database.executeSql("select count(*)::int as n from pgboss.job where name = 'test.web-only' and state = 'created'")
  t.equal(rows[0].n, 1, 'the job waits for a worker')
})
