import t from 'tap'
import { PATTERN_LIMITS, patternShapeProblem } from '../../../../plugins/apps/manifest/pattern-budget.ts'
import { settingsValidator } from '../../../../plugins/apps/manifest/validate.ts'
import { build, createApp, oauthInstall, publishApp, registerUser, REVIEWER_ENV } from '../../../helper.ts'
import { longestStall } from './event-loop.ts'

const STALL_MS = 100
/** The red team's pattern: a case-folded class repeated a thousand times, 5.2 s on 10 000 characters. */
const FOLDED_BOMB = '(?i)[a-zß]{0,1000}!'
const fields = (count: number, property: Record<string, unknown>) => ({
  type: 'object', properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, { type: 'string', ...property }]))
})

t.test('PUT /developer/apps/:appId/manifest refuses patterns whose work is unbounded', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer)
  const save = (settingsSchema: unknown) => app.inject({
    method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest: { settingsSchema } }
  })

  let response = await save(fields(6, { pattern: FOLDED_BOMB }))
  const stall = await longestStall(async () => { response = await save(fields(6, { pattern: FOLDED_BOMB })) })
  t.equal(response.statusCode, 400, 'the six-field bomb is refused at manifest save')
  t.match(response.json().message, /settingsSchema: breaks a platform limit: .*repeats 1000 times; at most 100 \(limit: pattern repetition\)/)
  t.ok(stall < STALL_MS, `the refusal stalled the event loop at most ${stall.toFixed(1)} ms`)

  response = await save(fields(1, { pattern: '(?i)[a-zß]{0,50}!' }))
  t.match(response.json().message, /repeats a case-folded class 50 times; at most 20 under \(\?i\)/)

  // inside the static limits, but a hundred states per character on 10 000 characters (no maxLength)
  const timed = await longestStall(async () => { response = await save(fields(1, { pattern: '[a-z]{0,100}!' })) })
  t.equal(response.statusCode, 400)
  t.ok(timed < STALL_MS, `timing it stalled the event loop at most ${timed.toFixed(1)} ms`)
  t.match(response.json().message, /takes \d+ ms on a worst-case string of 10000 characters; at most 20 ms.*\(limit: pattern time\)/)
  response = await save(fields(1, { pattern: '[a-z]{0,100}!', maxLength: 64 }))
  t.equal(response.statusCode, 200, 'the same pattern on short strings is fine')

  // each pattern is quick, the fields together are not: the schema's sum is bounded too
  response = await save(fields(200, { pattern: '[a-z]{0,20}!', maxLength: 3000 }))
  t.equal(response.statusCode, 400)
  t.match(response.json().message, /more than 50 ms in all .*\(limit: pattern time\)/)
  t.equal((await save(fields(200, { pattern: '^[a-z0-9-]+$', maxLength: 64 }))).statusCode, 200, 'two hundred short patterned fields are fine')
})

t.test('the static limits on a pattern', async (t) => {
  t.equal(patternShapeProblem('^[A-Za-z0-9_]{1,64}$'), null)
  t.equal(patternShapeProblem('^#[0-9a-f]{6}$'), null)
  t.equal(patternShapeProblem('(?i)^[a-z]{2,3}$'), null, 'a short case-folded repetition')
  t.equal(patternShapeProblem('(?i)ab{50}'), null, 'a repeated literal folds to one pair')
  t.equal(patternShapeProblem('[{500}]'), null, 'a brace inside a class is no repetition')
  t.equal(patternShapeProblem('\\{500}'), null, 'nor an escaped one... and RE2 reads the rest as literal text')
  t.match(patternShapeProblem('a{101}'), /repeats 101 times/)
  t.match(patternShapeProblem('a{5,}b{0,1000}'), /repeats 1000 times/)
  t.match(patternShapeProblem('(?i:[a-z]){21}'), /case-folded group/)
  t.match(patternShapeProblem('(?i)\\w{0,30}'), /case-folded class/)
  t.match(patternShapeProblem('(a{0,20}){0,20}'), /compiles to \d+ RE2 instructions; at most 256 \(limit: pattern size\)/, 'nesting multiplies')
})

t.test('one validation stops matching past its time budget', async (t) => {
  // one pattern reached through a $ref under items: measured once at save, run once per item
  const schema = {
    type: 'object',
    properties: { codes: { type: 'array', maxItems: 500, items: { $ref: '#/$defs/code' } } },
    $defs: { code: { type: 'string', maxLength: 500, pattern: '[a-z]{0,20}!' } }
  }
  const validate = settingsValidator(schema)
  t.equal(validate({ codes: ['abc!'] }), true, 'the schema is inside the budgets')
  const codes = Array.from({ length: 500 }, () => `${'a'.repeat(499)}!`)
  let valid = true
  let tookMs = Infinity
  const stall = await longestStall(async () => {
    const started = performance.now()
    valid = validate({ codes })
    tookMs = Math.min(tookMs, performance.now() - started)
  })
  t.equal(valid, false)
  t.ok(tookMs < STALL_MS, `validating took ${tookMs.toFixed(1)} ms`)
  t.match(validate.errors, [{ keyword: 'patternWork', message: `needs more than ${PATTERN_LIMITS.validationMs} ms of pattern matching; shorten the values` }])
  t.ok(stall < STALL_MS, `the worst allowed validation stalled the event loop at most ${stall.toFixed(1)} ms`)
  t.equal(validate({ codes: ['abc!'] }), true, 'the next validation has a budget of its own')
})

t.test('PUT /merchant/installations/:id/settings judges each installation by its own schema', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const developer = await registerUser(app, 'DEVELOPER')
  const merchant = await registerUser(app, 'MERCHANT')
  const installWith = async (pattern: string) => {
    const { app: created, clientSecret } = await createApp(app, developer, { scopes: ['read_business'] })
    const manifest = { settingsSchema: { type: 'object', properties: { code: { type: 'string', maxLength: 100, pattern } } } }
    t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })).statusCode, 200)
    await publishApp(app, developer, created.id)
    const installed = await oauthInstall(app, merchant, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })
    return (settings: unknown) => app.inject({ method: 'PUT', url: `/merchant/installations/${installed.installationId}/settings`, headers: merchant.auth, payload: { settings } })
  }
  const letters = await installWith('^[a-z]+$')
  const digits = await installWith('^[0-9]+$')
  t.equal((await letters({ code: 'abc' })).statusCode, 200)
  t.equal((await digits({ code: '123' })).statusCode, 200, "the second app's pattern, not the first one compiled")
  const refused = await digits({ code: 'abc' })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().message, /code must match pattern "\^\[0-9\]\+\$"/)
  t.equal((await letters({ code: '123' })).statusCode, 400)
})
