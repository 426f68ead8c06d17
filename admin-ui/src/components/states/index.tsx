import type { ComponentChildren } from 'preact'
import type { ApiProblem } from '../../lib/api.ts'
import styles from './style.module.css'

export function Loading ({ what = 'Loading' }: { what?: string }) {
  return <p class={`muted ${styles.loading}`} aria-busy='true'>{what}…</p>
}

export function Empty ({ children }: { children: ComponentChildren }) {
  return <div class={styles.empty} data-testid='empty'>{children}</div>
}

/**
 * The API's message, and every listed problem when the 400 carried them. With `marked`, the form
 * shows each problem on its field, so the summary only points there.
 */
export function ErrorMessage ({ message, problems = [], marked = false }: { message: string | null, problems?: ApiProblem[], marked?: boolean }) {
  if (message === null) return null
  if (marked) return <div class='error' role='alert'>{problems.length === 1 ? 'Check the marked field.' : 'Check the marked fields.'}</div>
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

/** A field's problem, under the field: the input names it with aria-describedby and aria-invalid. */
export function FieldError ({ id, message }: { id: string, message: string | undefined }) {
  if (message === undefined) return null
  return <span id={id} class='field-error' data-testid='field-error'>{message}</span>
}

/** A short outcome: green when it went well, the error style (and an alert) when it did not. */
export function Notice ({ children, tone = 'ok' }: { children: ComponentChildren, tone?: 'ok' | 'error' }) {
  if (tone === 'error') return <div class='error' role='alert'>{children}</div>
  return <div class={styles.notice} role='status'>{children}</div>
}
