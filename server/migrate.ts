import { loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'

/** `npm run migrate`: apply pending migrations (start-up does this too) and exit. */
const config = loadConfig(process.env)
const database = await openDatabase({
  databaseUrl: config.databaseUrl, listenUrl: config.databaseListenUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize
})
try {
  await database.migrate()
  console.log(`migrations applied (${database.kind})`)
} finally {
  await database.close()
}
