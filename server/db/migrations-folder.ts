import { fileURLToPath } from 'node:url'

/** The SQL migrations: the database client applies them, the embedded database's template is named by them. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url))
