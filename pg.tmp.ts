import { PGlite } from '@electric-sql/pglite'
let t = Date.now()
const a = await PGlite.create(); console.log('memory create', Date.now() - t)
t = Date.now(); const dump = await a.dumpDataDir('none'); console.log('dump', Date.now() - t, dump.size)
t = Date.now(); const b = await PGlite.create({ loadDataDir: dump }); console.log('load from dump', Date.now() - t)
t = Date.now(); const c = await PGlite.create('/tmp/pgl-x'); console.log('dir create', Date.now() - t); await c.close()
t = Date.now(); const d = await PGlite.create('/tmp/pgl-x'); console.log('dir reopen', Date.now() - t); await d.close()
process.exit(0)
