import { useEffect, useState } from 'preact/hooks'
import { message } from '../api'
import './engagement.css'

/** Shared bits of the engagement pages (community, messaging, notifications, site services, webhooks, monitored sites). */

/** A date as the operator's locale shows it; '—' for none. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—'
}

/** The part of the hash after `prefix/` (a detail id), or null; follows hash changes. */
export function useSubpath(prefix: string): string | null {
  const read = () => {
    const rest = location.hash.startsWith(`${prefix}/`) ? location.hash.slice(prefix.length + 1) : ''
    return rest ? decodeURIComponent(rest.split(/[/?]/)[0]!) : null
  }
  const [sub, setSub] = useState(read)
  useEffect(() => {
    const onChange = () => setSub(read())
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [prefix])
  return sub
}

/**
 * An action's runner: `run(fn)` clears the error, runs fn, keeps the API's message when it throws,
 * and says whether it is busy (buttons disable themselves meanwhile).
 */
export function useAction() {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (fn: () => Promise<unknown>): Promise<boolean> => {
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
  return { error, busy, run, setError }
}

/** A state word with a colour and its text (colour is never the only cue). */
export function Badge({ tone, children }: { tone: 'good' | 'bad' | 'neutral' | 'warn'; children: string }) {
  return <span class={`badge ${tone}`}>{children}</span>
}

/** A one-time secret, shown right after it is created. */
export function SecretOnce({ label, value, testId, onDone }: { label: string; value: string; testId: string; onDone: () => void }) {
  return (
    <div class="secret" role="status">
      <p>{label}</p>
      <code data-testid={testId}>{value}</code>{' '}
      <button type="button" onClick={() => void navigator.clipboard?.writeText(value)}>Copy</button>{' '}
      <button type="button" onClick={onDone}>Done</button>
    </div>
  )
}

export function percent(n: number | null | undefined): string {
  return n == null ? '—' : `${n.toFixed(2)}\u00a0%`
}

export function ms(n: number | null | undefined): string {
  return n == null ? '—' : `${Math.round(n)}\u00a0ms`
}
