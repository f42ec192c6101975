import { useEffect, useRef } from 'preact/hooks'

/** Shared bits of the team-area pages; what other areas use too is in ../ui. */

/** Lines of a textarea as a list (blank lines dropped). */
export const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean)

/** A ref that focuses its element once, when it mounts (an edit form that opens takes the keyboard focus). */
export function useAutofocus<T extends HTMLElement>(on = true) {
  const ref = useRef<T>(null)
  useEffect(() => {
    if (on) ref.current?.focus()
  }, [])
  return ref
}
