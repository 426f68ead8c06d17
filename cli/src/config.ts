import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where the platform is unless --server or APP_PLATFORM_URL says otherwise (DESIGN §19). */
export const DEFAULT_SERVER = 'http://localhost:3000'

export interface StoredLogin { token: string, email: string, expiresAt: string }

/** $XDG_CONFIG_HOME/app-platform/, else ~/.config/app-platform/ (DESIGN §19). */
export function configDir (env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config')
  return join(base, 'app-platform')
}

export function serverUrl (option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const raw = option ?? (env.APP_PLATFORM_URL !== undefined && env.APP_PLATFORM_URL !== '' ? env.APP_PLATFORM_URL : DEFAULT_SERVER)
  return raw.replace(/\/+$/, '')
}

/**
 * The CLI's logins, one per server, in credentials.json (mode 0600, its folder 0700): a token is a
 * password for 30 days, so no other user of the machine may read it.
 */
export function createCredentialStore (dir: string = configDir()) {
  const file = join(dir, 'credentials.json')

  function readAll (): Record<string, StoredLogin> {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown
      return typeof parsed === 'object' && parsed !== null ? parsed as Record<string, StoredLogin> : {}
    } catch {
      return {}
    }
  }

  function writeAll (logins: Record<string, StoredLogin>): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(logins, null, 2)}\n`, { mode: 0o600 })
    chmodSync(temporary, 0o600)
    renameSync(temporary, file)
  }

  return {
    file,
    get (server: string): StoredLogin | null { return readAll()[server] ?? null },
    set (server: string, login: StoredLogin): void { writeAll({ ...readAll(), [server]: login }) },
    remove (server: string): void {
      const logins = readAll()
      delete logins[server]
      writeAll(logins)
    }
  }
}

export type CredentialStore = ReturnType<typeof createCredentialStore>
