import { useEffect, useRef, useState } from 'preact/hooks'
import { message } from '../api'
import './team-area.css'

/** Shared bits of the team-area pages (kept here, not in ../ui, which other areas own). */

/** An action runner: `run(fn)` clears the error, runs fn, and keeps the API's message if it throws. */
export function useAction(): { error: string | null; busy: boolean; run: (fn: () => Promise<unknown>) => Promise<boolean>; clear: () => void } {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (fn: () => Promise<unknown>) => {
    setError(null)
    setBusy(true)
    try {
      await fn()
      return true
    } catch (err) {
      setError(message(err))
      return false
    } finally {
      setBusy(false)
    }
  }
  return { error, busy, run, clear: () => setError(null) }
}

/** A secret shown once (like API tokens): copy, then Done forgets it. */
export function OnceSecret({ intro, value, testId, onDone }: { intro: string; value: string; testId: string; onDone: () => void }) {
  return (
    <div class="secret" role="status">
      <p>{intro}</p>
      <code data-testid={testId}>{value}</code>{' '}
      <button type="button" onClick={() => void navigator.clipboard?.writeText(value)}>Copy</button>{' '}
      <button type="button" onClick={onDone}>Done</button>
    </div>
  )
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—')

/** Lines of a textarea as a list (blank lines dropped). */
export const lines = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean)

/** A ref that focuses its element once, when it mounts (an edit form that opens takes the keyboard focus). */
export function useAutofocus<T extends HTMLElement>(on = true) {
  const ref = useRef<T>(null)
  useEffect(() => {
    if (on) ref.current?.focus()
  }, [])
  return ref
}
