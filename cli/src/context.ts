import { AppApiError, createDeveloperClient, problemsOf, type ApiProblem, type DeveloperClient } from '@app-platform/sdk'
import { createCredentialStore, serverUrl, type CredentialStore } from './config.ts'
import { createOutput, type Output } from './output.ts'

/** A failure the CLI explains in one message; exit code 1 (2 is for usage, which commander reports). */
export class CliError extends Error {
  readonly exitCode: number
  readonly problems: ApiProblem[]
  readonly statusCode: number | null
  constructor (message: string, options: { exitCode?: number, problems?: ApiProblem[], statusCode?: number | null } = {}) {
    super(message)
    this.name = 'CliError'
    this.exitCode = options.exitCode ?? 1
    this.problems = options.problems ?? []
    this.statusCode = options.statusCode ?? null
  }
}

export interface GlobalOptions { server?: string, json?: boolean }

export interface Context {
  server: string
  out: Output
  credentials: CredentialStore
  /** A client without a token: the device login. */
  anonymous: () => DeveloperClient
  /** A client with the stored token; "log in first" when there is none. */
  client: () => DeveloperClient
}

export function createContext (options: GlobalOptions): Context {
  const server = serverUrl(options.server)
  const credentials = createCredentialStore()
  const out = createOutput(options.json === true)
  return {
    server,
    out,
    credentials,
    anonymous: () => createDeveloperClient({ baseUrl: server, fetch: explainingFetch(server) }),
    client () {
      const login = credentials.get(server)
      if (login === null) throw new CliError(`Not logged in to ${server}: run \`app-platform login\` first`)
      return createDeveloperClient({ baseUrl: server, token: login.token, fetch: explainingFetch(server) })
    }
  }
}

/** fetch whose network failures say what could not be reached, and why. */
function explainingFetch (server: string) {
  return async (input: string, init?: RequestInit): Promise<Response> => {
    try {
      return await fetch(input, init)
    } catch (error) {
      if (init?.signal?.aborted === true) throw error
      const cause = (error as { cause?: { code?: string, message?: string } }).cause
      const why = cause?.code ?? cause?.message ?? (error as Error).message
      throw new CliError(`Could not reach the platform at ${server} (${why}) while calling ${new URL(input).pathname}. Is it running? Use --server or APP_PLATFORM_URL to point elsewhere.`)
    }
  }
}

/** The API's answer as the CLI says it: an expired login asks for a new one; a 400's problems are kept with their JSON paths. */
export function explain (error: unknown): CliError {
  if (error instanceof CliError) return error
  if (error instanceof AppApiError) {
    if (error.statusCode === 401) return new CliError('Your CLI login has expired or was revoked: run `app-platform login` again', { statusCode: 401 })
    return new CliError(error.message, { problems: problemsOf(error), statusCode: error.statusCode })
  }
  return new CliError((error as Error)?.message ?? String(error))
}
