/*
 * `npm start`: the server from its bundle (server/build-server.js), made on the first start and again
 * whenever its sources changed, so a start loads compiled JavaScript instead of transforming the
 * TypeScript sources. Tracing's module is loaded first, as server/main.ts imports it first: it must
 * wrap pg and undici before they load. Should the bundle be impossible to make, the sources run
 * through tsx as before (`npm run start:source` always does).
 */
import { ensureServerBuilt } from './build-server.js'

const { entries, problem } = await ensureServerBuilt()
if (entries === null) {
  console.warn(problem)
  const { register } = await import('tsx/esm/api')
  register()
  await import('./main.ts')
} else {
  await import(entries['telemetry-start'])
  await import(entries.main)
}
