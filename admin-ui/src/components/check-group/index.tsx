import { FieldError } from '../states/index.tsx'
import styles from './style.module.css'

/** A named set of checkboxes whose value is the list of checked options. */
export function CheckGroup ({ legend, name, options, value, onChange, highlight = [], error, field, labelOf }: {
  legend: string
  /** data-field: a form finds the group by it (to take the keyboard to its first box). */
  field?: string
  /** A problem of the whole group, shown under it and tied to it for screen readers. */
  error?: string
  name: string
  options: readonly string[]
  value: string[]
  onChange: (next: string[]) => void
  highlight?: string[]
  /** Words for an option; without, the option's own name in code type (a scope, an event). */
  labelOf?: (option: string) => string
}) {
  function toggle (option: string, checked: boolean) {
    onChange(checked ? options.filter((o) => o === option || value.includes(o)) : value.filter((o) => o !== option))
  }
  return (
    <fieldset class={styles.group} data-field={field} aria-describedby={error !== undefined ? `${name}-error` : undefined}>
      <legend>{legend}</legend>
      <div class={styles.options}>
        {options.map((option) => (
          <label key={option} class={`${styles.option} ${highlight.includes(option) ? styles.highlight : ''}`}>
            <input type='checkbox' name={name} value={option} checked={value.includes(option)} onChange={(e) => toggle(option, (e.currentTarget as HTMLInputElement).checked)} />
            {labelOf === undefined ? <code>{option}</code> : <span>{labelOf(option)}</span>}
          </label>
        ))}
      </div>
      <FieldError id={`${name}-error`} message={error} />
    </fieldset>
  )
}
