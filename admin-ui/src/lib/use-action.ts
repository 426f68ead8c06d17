import { useState } from 'preact/hooks'
import { ApiError, type ApiProblem } from './api.ts'

export interface Action {
  busy: boolean
  error: string | null
  /** The refusal's stable code (DESIGN §21), for a screen that puts it on a field; null without one. */
  code: string | null
  /** Every problem of a 400 that lists them (manifest validation), else empty. */
  problems: ApiProblem[]
  /** Runs one API call; resolves to its result, or null when it failed (the error is kept for display). */
  run: <T>(call: () => Promise<T>) => Promise<T | null>
  clear: () => void
}

/** The write-side companion of useResource: busy flag and the API's error message for one button or form. */
export function useAction (): Action {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [code, setCode] = useState<string | null>(null)
  const [problems, setProblems] = useState<ApiProblem[]>([])
  async function run<T> (call: () => Promise<T>): Promise<T | null> {
    setBusy(true)
    setError(null)
    setCode(null)
    setProblems([])
    try {
      return await call()
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not reach the server')
      setCode(e instanceof ApiError ? e.code : null)
      setProblems(e instanceof ApiError ? e.body.errors ?? [] : [])
      return null
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, code, problems, run, clear: () => { setError(null); setCode(null); setProblems([]) } }
}
