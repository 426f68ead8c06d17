import neostandard from 'neostandard'

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
  }
]
