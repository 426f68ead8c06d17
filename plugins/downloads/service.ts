import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildTarball, PACKAGES, type PackageKey, type Tarball } from './build.ts'

/** The workspace the tarballs are built from: this checkout. */
export const DEFAULT_WORKSPACE = fileURLToPath(new URL('../..', import.meta.url))
/** Where built tarballs are kept, by a hash of their sources: a restart on the same sources builds nothing. */
export const DEFAULT_CACHE_DIR = join(tmpdir(), 'app-platform-downloads')

/** One package's state: built, or why it could not be. */
export type Outcome = { ok: true, tarball: Tarball } | { ok: false, error: string }

export interface DownloadsOptions { workspace?: string, cacheDir?: string, onError?: (key: PackageKey, error: unknown) => void }

/**
 * The SDK and CLI tarballs (DESIGN §22), each built once per process on first need (or by `warm` at
 * start), off the request path: concurrent requests share the one build. A package that fails to
 * build stays failed for this process (its sources will not change under it) and fails alone.
 */
export function createDownloads (options: DownloadsOptions = {}) {
  const workspace = options.workspace ?? DEFAULT_WORKSPACE
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR
  const builds = new Map<PackageKey, Promise<Outcome>>()

  function outcome (key: PackageKey): Promise<Outcome> {
    let pending = builds.get(key)
    if (pending === undefined) {
      pending = buildTarball(workspace, cacheDir, key).then(
        (tarball): Outcome => ({ ok: true, tarball }),
        (error: unknown): Outcome => {
          options.onError?.(key, error)
          return { ok: false, error: error instanceof Error ? error.message.split('\n')[0] ?? error.name : String(error) }
        })
      builds.set(key, pending)
    }
    return pending
  }

  return {
    outcome,
    /** Both packages, in order. */
    all: async (): Promise<Record<PackageKey, Outcome>> => {
      const [sdk, cli] = await Promise.all(PACKAGES.map(outcome))
      return { sdk: sdk as Outcome, cli: cli as Outcome }
    },
    /** Starts both builds in the background (the process runner calls it at start). */
    warm: (): void => { for (const key of PACKAGES) void outcome(key) }
  }
}

export type Downloads = ReturnType<typeof createDownloads>
