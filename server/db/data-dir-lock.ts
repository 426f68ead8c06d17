import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'

/** The file in DATA_DIR that names the process using it. */
export const LOCK_FILE = 'platform.lock'

export class DataDirInUseError extends Error {
  constructor (readonly dataDir: string, readonly pid: number) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid}: stop that server first (one process at a time can open an embedded database)`)
    this.name = 'DataDirInUseError'
  }
}

function alive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but is another user's
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The process holding `dataDir`, or null when none does (no lock file, or a stale one). */
export function dataDirHolder (dataDir: string): number | null {
  let text: string
  try {
    text = readFileSync(join(dataDir, LOCK_FILE), 'utf8')
  } catch {
    return null
  }
  const pid = Number.parseInt(text, 10)
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null
}

/**
 * Claims an embedded database's folder for this process: PGlite is one process's database, and a
 * second process writing the same files corrupts it. A lock left by a process that died is taken over.
 * Returns the release function.
 */
export function claimDataDir (dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        rmSync(path, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = dataDirHolder(dataDir)
      if (holder !== null) throw new DataDirInUseError(dataDir, holder)
      rmSync(path, { force: true })
    }
  }
  throw new Error(`could not claim ${dataDir}: another process keeps taking it`)
}
