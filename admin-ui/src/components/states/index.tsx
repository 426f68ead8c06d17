import type { ComponentChildren } from 'preact'
import type { ApiProblem } from '../../lib/api.ts'
import styles from './style.module.css'

export function Loading ({ what = 'Loading' }: { what?: string }) {
  return <p class={`muted ${styles.loading}`} aria-busy='true'>{what}…</p>
}

export function Empty ({ children }: { children: ComponentChildren }) {
  return <div class={styles.empty} data-testid='empty'>{children}</div>
}

/** The API's message, and every listed problem when the 400 carried them. */
export function ErrorMessage ({ message, problems = [] }: { message: string | null, problems?: ApiProblem[] }) {
  if (message === null) return null
  return (
    <div class='error' role='alert'>
      {problems.length === 0
        ? message
        : (
          <>
            <strong>{problems.length === 1 ? 'One problem' : `${problems.length} problems`}</strong>
            <ul class={styles.problems}>{problems.map((p, i) => <li key={i}><code>{p.path === '' ? '/' : p.path}</code> {p.message}</li>)}</ul>
          </>
          )}
    </div>
  )
}

/** A short outcome: green when it went well, the error style (and an alert) when it did not. */
export function Notice ({ children, tone = 'ok' }: { children: ComponentChildren, tone?: 'ok' | 'error' }) {
  if (tone === 'error') return <div class='error' role='alert'>{children}</div>
  return <div class={styles.notice} role='status'>{children}</div>
}
