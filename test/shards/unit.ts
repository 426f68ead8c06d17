/**
 * `npm run test:unit`: the unit tier (`*.unit.test.ts`, shards.ts) in one process, without tap's
 * `before` step (no database template is made: a unit file needs none). Not a `.test.ts` itself, so
 * `npm test` does not run it: there the unit files run in the groups.
 */
import { runFiles, unitFiles } from './shards.ts'

await runFiles(unitFiles())
