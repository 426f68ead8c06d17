import { runShard } from './shards.ts'

await runShard(5)
