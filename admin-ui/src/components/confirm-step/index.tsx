import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { ErrorMessage } from '../states/index.tsx'
import styles from './style.module.css'

/**
 * A destructive button with a confirm step in place (as the pages list has): the step is an
 * alertdialog, focus goes to its Cancel, Escape closes it, and focus returns to the button.
 */
export function ConfirmStep ({ label, confirmLabel, busyLabel = 'Deleting…', dismissLabel = 'Cancel', title, busy, error, onConfirm, children }: {
  /** The first button, e.g. "Delete". */
  label: string
  /** The button that does it, e.g. "Delete product". */
  confirmLabel: string
  /** The confirm button while it works, e.g. "Uninstalling…" (default "Deleting…"). */
  busyLabel?: string
  /** The button that closes the step, doing nothing (default "Cancel"; "Keep it" where the action is itself a cancel). */
  dismissLabel?: string
  /** The dialog's name and the first button's accessible name, e.g. "Delete Margherita". */
  title: string
  busy: boolean
  error: string | null
  onConfirm: () => void
  /** What will happen, in words. */
  children: ComponentChildren
}) {
  const [open, setOpen] = useState(false)
  const cancel = useRef<HTMLButtonElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(false)
  useLayoutEffect(() => {
    if (open) cancel.current?.focus()
    else if (wasOpen.current) trigger.current?.focus()
    wasOpen.current = open
  }, [open])
  const id = `confirm-${title.replace(/[^A-Za-z0-9]+/g, '-')}`
  return (
    <div class={styles.wrap}>
      <button ref={trigger} type='button' class='danger' aria-label={title} aria-expanded={open} onClick={() => setOpen(true)}>{label}</button>
      {open && (
        <div
          class={styles.confirm} role='alertdialog' aria-label={`${title}?`} aria-describedby={id} data-testid='delete-confirm'
          onKeyDown={(e) => { if (e.key === 'Escape' && !busy) { e.preventDefault(); setOpen(false) } }}
        >
          <p id={id}>{children}</p>
          <ErrorMessage message={error} />
          <div class={styles.buttons}>
            <button type='button' class='danger' disabled={busy} onClick={onConfirm}>{busy ? busyLabel : confirmLabel}</button>
            <button ref={cancel} type='button' class='secondary' disabled={busy} onClick={() => setOpen(false)}>{dismissLabel}</button>
          </div>
        </div>
      )}
    </div>
  )
}
