import neostandard from 'neostandard'

// neostandard (standard's style for flat config) with its TypeScript rules over every source folder.
export default [
  ...neostandard({ ts: true, ignores: ['admin-ui/dist/**', 'sdk/dist/**', 'openapi/openapi.json', 'data/**', 'node_modules/**'] }),
  {
    rules: {
      '@stylistic/max-len': ['error', { code: 160, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }]
    }
  }
]
