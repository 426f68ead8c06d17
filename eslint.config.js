import neostandard from 'neostandard'

/**
 * Time is injected (server/clock.ts): the server and its plugins ask `fastify.clock` (or the clock
 * their factory was given), so tests move time instead of waiting for it. Elapsed real time (a
 * call's duration, a wait's bound) is `performance.now()`, which this does not restrict.
 */
const CLOCK_READS = [
  { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'Read the injected clock (clock.nowMs(), server/clock.ts), not Date.now(); a duration is performance.now().' },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read the injected clock (clock.now(), server/clock.ts), not new Date(); a stamp nothing decides on may be databaseNow().' }
]
/** The reads that must be the machine's own time, each for its reason. */
const WALL_TIME = [
  // the machine's clock itself, behind the Clock interface
  'server/clock.ts',
  // an operator's command, no app: the backup manifest's createdAt and the kept-aside directory's name are the machine's time
  'server/backup.ts',
  // X-RateLimit-Reset as a Unix time must agree with @fastify/rate-limit's windows, which run on the machine's clock
  'plugins/installations/app-rate-limit.ts'
]

/**
 * Tests wait for work, never for a fixed time (README, Tests): `until()` in test/wait.ts, the one
 * file allowed a timer, polls for a condition; `within()` there bounds a wait that may never end.
 * A receiver that answers late (a hook timeout) delays its answer with a callback timer, not a wait.
 * Browser tests too: a message shown to be ignored is followed by one that is handled, and waited for.
 */
const FIXED_WAITS = [
  { selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout']", message: 'Tests wait for work, not time: until() or within() from test/wait.ts.' },
  { selector: 'ImportDeclaration[source.value=/^(node:)?timers\\u002Fpromises$/]', message: 'Tests wait for work, not time: until() or within() from test/wait.ts.' },
  { selector: "CallExpression[callee.property.name='waitForTimeout']", message: 'Wait for what the page shows (a locator, waitForFunction), not for time.' }
]

/**
 * neostandard (standard's style in flat config) with its TypeScript rules over every source folder.
 * Three departures, for how this codebase writes: `void promise` marks a deliberately floating promise,
 * short data literals may put several properties on one line of a multi-line object, and a line
 * may run past 160 characters only inside a string (a message or SQL text reads better whole).
 */
export default [
  ...neostandard({ ts: true, ignores: ['admin-ui/dist/**', 'sdk/dist/**', 'cli/dist/**', 'data/**', '**/node_modules/**'] }),
  {
    rules: {
      'no-void': ['error', { allowAsStatement: true }],
      '@stylistic/object-property-newline': 'off',
      '@stylistic/max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true }]
    }
  },
  { files: ['server/**/*.ts', 'plugins/**/*.ts'], ignores: WALL_TIME, rules: { 'no-restricted-syntax': ['error', ...CLOCK_READS] } },
  { files: ['test/**/*.ts', 'examples/*/test/**/*.ts'], ignores: ['test/wait.ts'], rules: { 'no-restricted-syntax': ['error', ...FIXED_WAITS] } }
]
