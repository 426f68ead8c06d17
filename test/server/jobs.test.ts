import t from 'tap'
import { build, releaseDelayedJobs } from '../helper.ts'

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

  t.test('holds a delayed job until its time (the database\'s), then runs it', async (t) => {
    let ran = false
    const done = new Promise<void>((resolve) => {
      void app.jobs.work('test.delayed', async () => { ran = true; resolve() })
    })
    await app.jobs.send('test.delayed', {}, { startAfter: 3600 })
    const { rows } = await app.database.executeSql("select state, start_after > now() + interval '3590 seconds' as later from pgboss.job where name = 'test.delayed'")
    t.same(rows, [{ state: 'created', later: true }], 'waiting for its startAfter, an hour of database time away')
    t.equal(await app.jobs.boss.fetch('test.delayed').then((jobs) => jobs.length), 0, 'no worker can take it before then')
    t.equal(ran, false)
    t.equal(await releaseDelayedJobs(app, 'test.delayed'), 1, 'its time has come (as a test moves it: test/helper.ts)')
    await done
    t.equal(ran, true, 'then it runs')
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
  // what would take jobs is a pg-boss worker: the web process registers none
  const workers: string[] = []
  const register = app.jobs.boss.work.bind(app.jobs.boss) as (...args: unknown[]) => Promise<string>
  app.jobs.boss.work = (async (name: string, ...rest: unknown[]) => { workers.push(name); return await register(name, ...rest) }) as typeof app.jobs.boss.work
  let ran = false
  await app.jobs.work('test.web-only', async () => { ran = true })
  await app.jobs.send('test.web-only', {})
  t.same(workers, [], 'no worker registered')
  t.equal(ran, false)
  const { rows } = await app.database.executeSql("select count(*)::int as n from pgboss.job where name = 'test.web-only' and state = 'created'")
  t.equal(rows[0].n, 1, 'the job waits for a worker')
})
