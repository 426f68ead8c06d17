import t from 'tap'
import { MAX_SETTING_LENGTH, settingsValidator } from '../../../../plugins/apps/manifest/validate.ts'
import { build, createApp, registerUser } from '../../../helper.ts'

const EVIL = '^(a+)+$'
/** A patterned setting needs a maxLength short enough for its pattern's time budget (pattern-budget.test.ts). */
const LONGEST = 2000
const BLOCK = { blockType: 'promo', name: 'Promo', renderUrl: 'https://app.example.com/blocks/promo' }
const schemaWith = (property: Record<string, unknown>) => ({ type: 'object', properties: { code: { type: 'string', ...property } } })

t.test('a backtracking pattern cannot stall the event loop', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const dryRun = (defaultValue: string) => app.inject({
    method: 'PUT', url: `/developer/apps/${created.id}/manifest?dryRun=true`, headers: developer.auth,
    payload: { manifest: { blocks: [{ ...BLOCK, settingsSchema: schemaWith({ pattern: EVIL, maxLength: LONGEST }), defaultConfig: { code: defaultValue } }] } }
  })

  // the reported case: 29 a's and a '!' took 6.6 s with a backtracking engine
  const warm = await dryRun(`${'a'.repeat(29)}!`)
  t.equal(warm.statusCode, 400, 'the default does not match the pattern')
  t.match(warm.json().message, /blocks\/0\/defaultConfig\/code.*must match pattern/)

  const n = LONGEST - 1
  const started = performance.now()
  const pending = dryRun(`${'a'.repeat(n)}!`)
  const health = await app.inject({ method: 'GET', url: '/health' })
  const healthMs = performance.now() - started
  const response = await pending
  const tookMs = performance.now() - started
  t.equal(health.statusCode, 200)
  t.ok(healthMs < 1000, `/health answered in ${healthMs.toFixed(0)} ms meanwhile`)
  t.equal(response.statusCode, 400)
  t.ok(tookMs < 1000, `validated ${n + 1} characters in ${tookMs.toFixed(0)} ms`)

  const ok = await dryRun('aaaa')
  t.equal(ok.statusCode, 200, 'a matching default passes: the pattern still works')
})

t.test('settings saves use the same linear engine and cap every string', async (t) => {
  const validate = settingsValidator(schemaWith({ pattern: EVIL, maxLength: LONGEST }))
  validate({ code: 'aaa!' })
  const started = performance.now()
  t.equal(validate({ code: `${'a'.repeat(LONGEST - 1)}!` }), false)
  t.ok(performance.now() - started < 1000, 'in well under a second')
  t.equal(validate({ code: 'aaaa' }), true)

  const free = settingsValidator(schemaWith({}))
  t.equal(free({ code: 'x'.repeat(MAX_SETTING_LENGTH) }), true)
  t.equal(free({ code: 'x'.repeat(MAX_SETTING_LENGTH + 1) }), false, 'longer than the cap, though the schema sets no maxLength')
  t.match(free.errors, [{ instancePath: '/code', keyword: 'maxLength' }])
})

t.test('patterns RE2 cannot run are refused with the path', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  for (const pattern of ['(a)\\1', '(?<=a)b']) {
    const response = await app.inject({
      method: 'PUT', url: `/developer/apps/${created.id}/manifest?dryRun=true`, headers: developer.auth,
      payload: { manifest: { blocks: [{ ...BLOCK, settingsSchema: schemaWith({ pattern }) }] } }
    })
    t.equal(response.statusCode, 400, pattern)
    t.match(response.json().message, /settingsSchema.*is not a valid JSON Schema/, `${pattern}: named`)
  }
})
