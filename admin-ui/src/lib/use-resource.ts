import { useEffect, useState } from 'preact/hooks'
import { ApiError } from './api.ts'

export interface Resource<T> { data: T | null, error: string | null, loading: boolean, reload: () => void }

/** One way to load data: the latest answer for `key` wins; errors arrive as the API's message. */
export function useResource<T> (key: string | null, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<{ data: T | null, error: string | null, loading: boolean }>({ data: null, error: null, loading: key !== null })
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    if (key === null) return
    let current = true
    setState((previous) => ({ ...previous, loading: true, error: null }))
    load().then(
      (data) => { if (current) setState({ data, error: null, loading: false }) },
      (error: unknown) => { if (current) setState({ data: null, error: error instanceof ApiError ? error.message : 'Could not reach the server', loading: false }) }
    )
    return () => { current = false }
  }, [key, generation])
  return { ...state, reload: () => setGeneration((g) => g + 1) }
}
