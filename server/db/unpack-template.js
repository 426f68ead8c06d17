/*
 * Unpacks the embedded database's template (server/db/template.ts) into an empty data folder, on the
 * thread that calls it or, as a worker's script, on a thread of its own. Creating the cluster's 1 300
 * files is most of a first start's CPU (the kernel's, per file), so main.ts has a worker unpack them
 * while the server's modules load on the main thread (#43 item 5).
 *
 * Plain JavaScript, so that the bundled server (server/build-server.js) can run it as a worker from its
 * source, without a TypeScript loader; its types are in unpack-template.d.ts.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { extract } from 'tar'

/**
 * Unpacks the tarball `file` into `dataDir`/pgdata: beside it first and renamed, so an interrupted start
 * leaves no half cluster that `holdsDatabase` would take for a whole one. Returns whether it did; a
 * damaged tarball unpacks nothing and leaves nothing behind.
 */
export function unpackTemplate (file, dataDir) {
  const partial = join(dataDir, `pgdata.${process.pid}`)
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(partial, { recursive: true })
  try {
    // the dump's paths are absolute (/PG_VERSION, /base/…): tar makes them relative to `cwd`, and says so
    const problems = []
    extract({ file, cwd: partial, sync: true, onwarn: (code, message) => { if (code !== 'TAR_ENTRY_INFO') problems.push(`${code}: ${String(message)}`) } })
    if (problems.length > 0) throw new Error(problems.join('; '))
    renameSync(partial, join(dataDir, 'pgdata'))
    return true
  } catch {
    // a damaged template: this start runs initdb and keeps a new one
    return false
  } finally {
    rmSync(partial, { recursive: true, force: true })
  }
}

if (!isMainThread && workerData?.unpackTemplate !== undefined) {
  const { file, dataDir } = workerData.unpackTemplate
  parentPort?.postMessage(unpackTemplate(file, dataDir))
}
