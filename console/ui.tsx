import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { message } from './api'

/** Runs a loader when its inputs change; gives the data, the error (the API's message) and a reload. */
export function useLoad<T>(load: () => Promise<T>, inputs: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => live && setState({ data, loading: false }),
      (err) => live && setState({ error: message(err), loading: false }),
    )
    return () => {
      live = false
    }
  }, [...inputs, tick])
  return { ...state, reload: () => setTick((t) => t + 1) }
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

/** A date as the operator's locale shows it; '—' for none. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—'
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
  return { error, busy, run }
}

/** Saves what `href` points at as `filename`, as clicking a download link would. */
export function saveFile(href: string, filename: string): void {
  const link = document.createElement('a')
  link.href = href
  link.download = filename
  link.click()
}

/** A one-time secret (a webhook's signing secret, an OAuth client's), shown right after it is made: copy, then Done forgets it. */
export function SecretOnce({ label, value, testId, onDone }: { label: string; value: string; testId: string; onDone: () => void }) {
  return (
    <div class="secret" role="status">
      <p>{label}</p>
      <code data-testid={testId}>{value}</code>{' '}
      <button type="button" onClick={() => void navigator.clipboard?.writeText(value)}>
        Copy
      </button>{' '}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  )
}

/** "Loading…" while a page's data is on its way. */
export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  )
}

/** A list with nothing in it: says so, and what to do next (`children`: a sentence with a link or a button). */
export function EmptyState({ children }: { children: ComponentChildren }) {
  return (
    <div class="empty" role="status">
      {children}
    </div>
  )
}

/**
 * A list's state beside its table: Loading until its data first arrives, the empty state (`empty`)
 * when it has no item (`count` 0), else nothing. A failed load is left to the page's ErrorNote.
 */
export function ListState({ load, count, empty }: { load: { data?: unknown; error?: string }; count: number | undefined; empty: ComponentChildren }) {
  // A loader that waits on another (null until then) is loading too.
  if (load.data == null) return load.error ? null : <Loading />
  return count === 0 ? <EmptyState>{empty}</EmptyState> : null
}

export function ErrorNote({ error }: { error?: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null
}

/** A list's search box: `onSearch` gets each change as it is typed (lists go back to their first page with it). */
export function SearchBox({ value, placeholder, onSearch }: { value: string; placeholder: string; onSearch: (q: string) => void }) {
  return (
    <label class="search">
      Search <input type="search" value={value} onInput={(e) => onSearch(e.currentTarget.value)} placeholder={placeholder} />
    </label>
  )
}

/** A form's save and cancel buttons, and the error its last save got. */
export function FormActions({ busy, save, onCancel, error }: { busy: boolean; save: string; onCancel: () => void; error?: string | null }) {
  return (
    <>
      <div class="row-actions">
        <button type="submit" disabled={busy}>
          {save}
        </button>{' '}
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </>
  )
}

export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const last = Math.max(1, Math.ceil(total / pageSize))
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {last} ({total})
      </span>
      <button type="button" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  )
}

/** A bar for used against available (storage against quota). */
export function UsageBar({ used, total, label }: { used: number; total: number; label: string }) {
  const share = total > 0 ? Math.min(1, used / total) : 0
  return (
    <div class="usage">
      {/* biome-ignore lint/a11y/useSemanticElements: <meter> cannot be styled into this bar across browsers; the role gives it the same meaning */}
      <div class="bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={used}>
        <div class={share > 0.9 ? 'fill high' : 'fill'} style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
    </div>
  )
}

/** An ISO time from a datetime-local input (the operator's time zone), or undefined when empty. */
export const isoFromLocal = (value: string): string | undefined => (value ? new Date(value).toISOString() : undefined)

/** From and to, in the operator's time zone (datetime-local inputs); `onChange` gets both values as typed. */
export function TimeRange({ from, to, onChange }: { from: string; to: string; onChange: (from: string, to: string) => void }) {
  return (
    <>
      <label>
        From <input type="datetime-local" value={from} onInput={(e) => onChange(e.currentTarget.value, to)} />
      </label>
      <label>
        To <input type="datetime-local" value={to} onInput={(e) => onChange(from, e.currentTarget.value)} />
      </label>
    </>
  )
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

/**
 * Asks before a destructive action, in the page (a modal <dialog>, not the browser's confirm()):
 * `question` names the thing; `action` labels the button that goes ahead. Escape or Cancel says no.
 */
export function ask(question: string, action: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = document.createElement('dialog')
    dialog.className = 'ask'
    dialog.setAttribute('aria-labelledby', 'ask-question')
    const form = document.createElement('form')
    form.method = 'dialog'
    const text = document.createElement('p')
    text.id = 'ask-question'
    text.textContent = question
    const buttons = document.createElement('div')
    buttons.className = 'ask-buttons'
    const cancel = document.createElement('button')
    cancel.value = 'cancel'
    cancel.className = 'secondary'
    cancel.textContent = 'Cancel'
    const go = document.createElement('button')
    go.value = 'go'
    go.className = 'danger'
    go.textContent = action
    buttons.append(cancel, go)
    form.append(text, buttons)
    dialog.append(form)
    dialog.addEventListener('close', () => {
      dialog.remove()
      resolve(dialog.returnValue === 'go')
    })
    document.body.append(dialog)
    dialog.showModal()
    cancel.focus()
  })
}
