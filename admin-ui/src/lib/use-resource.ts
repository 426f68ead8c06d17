import { useEffect, useState } from 'preact/hooks'
import { ApiError } from './api.ts'

/**
 * `data` stays on screen while the next key loads; `current` says whether it is the answer for the
 * key asked now (false for the previous page's rows while the next page loads).
 */
export interface Resource<T> { data: T | null, error: string | null, loading: boolean, current: boolean, reload: () => void }

/** One way to load data: the latest answer for `key` wins; errors arrive as the API's message. */
export function useResource<T> (key: string | null, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<{ data: T | null, error: string | null, loading: boolean, key: string | null }>(
    { data: null, error: null, loading: key !== null, key: null })
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    if (key === null) return
    let current = true
    setState((previous) => ({ ...previous, loading: true, error: null }))
    load().then(
      (data) => { if (current) setState({ data, error: null, loading: false, key }) },
      (error: unknown) => { if (current) setState({ data: null, error: error instanceof ApiError ? error.message : 'Could not reach the server', loading: false, key }) }
    )
    return () => { current = false }
  }, [key, generation])
  const { key: answered, ...shown } = state
  return { ...shown, current: answered === key, reload: () => setGeneration((g) => g + 1) }
}
