import type { ApiProblem } from './api.ts'

/** A server's fragment ("must be <= 5") as a sentence of its own ("Must be <= 5."). */
export function sentence (message: string): string {
  const text = message.trim()
  if (text === '') return text
  const capital = text[0].toUpperCase() + text.slice(1)
  return /[.!?]$/.test(capital) ? capital : `${capital}.`
}

/**
 * The body problems of a 400 by the form field they belong to: the first segment of their path under
 * `under` (a JSON Pointer such as `/blocks/2/settings`), the first problem of a field winning. The
 * field shows the problem's message as a sentence; nothing here reads the top-level message text.
 */
export function problemsByField (problems: ApiProblem[], under = ''): Record<string, string> {
  const byField: Record<string, string> = {}
  for (const problem of problems) {
    if ((problem.in ?? 'body') !== 'body' || !problem.path.startsWith(`${under}/`)) continue
    const field = problem.path.slice(under.length + 1).split('/')[0]
    if (field !== '' && byField[field] === undefined) byField[field] = sentence(problem.message)
  }
  return byField
}

/** Whether every problem found a field of the form, so the form's own marks say it all. */
export const allShown = (problems: ApiProblem[], fields: readonly string[], under = ''): boolean =>
  problems.length > 0 && Object.keys(problemsByField(problems, under)).every((field) => fields.includes(field)) &&
  problems.every((problem) => (problem.in ?? 'body') === 'body' && problem.path.startsWith(`${under}/`))
