/**
 * tap's `before` step: makes the migrated test database templates once for the whole run, so no
 * test process pays for initdb, migrations or pg-boss's schema (and none races to make them).
 */
import { pgliteTemplateDump, postgresTemplate, SERVER_URL } from './database.ts'

await pgliteTemplateDump()
if (SERVER_URL !== null) await postgresTemplate()
