import { useState } from 'preact/hooks'
import type { Contract, ContractColumn, ContractRow } from '../../client/index'
import { client, data } from '../api'
import { FormActions, useAction, when } from '../ui'

/** A value as the grid shows it. */
export function shown(value: unknown, type: ContractColumn['type']): string {
  if (value === null || value === undefined) return '—'
  if (type === 'timestamp') return when(String(value))
  if (type === 'json') return JSON.stringify(value)
  return String(value)
}

/** A value as its input holds it (a string), and back. */
function toInput(value: unknown, type: ContractColumn['type']): string {
  if (value === null || value === undefined) return ''
  if (type === 'timestamp') {
    const d = new Date(String(value))
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
  }
  if (type === 'json') return JSON.stringify(value, null, 2)
  return String(value)
}

function fromInput(text: string, col: ContractColumn): unknown {
  if (text === '' && col.type !== 'text') return null
  switch (col.type) {
    case 'integer':
    case 'number':
      return Number(text)
    case 'boolean':
      return text === 'true'
    case 'timestamp':
      return new Date(text).toISOString()
    case 'json':
      try {
        return JSON.parse(text)
      } catch {
        throw new Error(`${col.name}: not valid JSON`)
      }
    default:
      return text
  }
}

/** Adds a row, or edits one (only the fields changed are sent): an input that fits each column's type. */
export function RowEditor({ contract: c, row, onDone }: { contract: Contract; row: ContractRow | null; onDone: (saved: boolean) => void }) {
  const initial = Object.fromEntries(c.columns.map((col) => [col.name, toInput(row?.[col.name], col.type)]))
  const [values, setValues] = useState<Record<string, string>>(initial)
  const { error, busy, run } = useAction()
  const save = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      const changed = c.columns.filter((col) => (row ? values[col.name] !== initial[col.name] : values[col.name] !== ''))
      const body = Object.fromEntries(changed.map((col) => [col.name, fromInput(values[col.name]!, col)]))
      const rows = client.api.contract.contracts({ name: c.name }).rows
      await data(row ? rows({ id: row.id }).patch(body) : rows.post(body))
      onDone(true)
    })
  }
  const set = (name: string, value: string) => setValues({ ...values, [name]: value })
  return (
    <form class="stack" aria-label={row ? `Row ${row.id}` : 'New row'} onSubmit={save}>
      <h3>{row ? `Edit row ${row.id.slice(0, 8)}` : 'New row'}</h3>
      {c.columns.map((col) => {
        const value = values[col.name] ?? ''
        const label = `${col.name}${col.nullable === false ? ' (required)' : ''}`
        switch (col.type) {
          case 'boolean':
            return (
              <label key={col.name}>
                {label}{' '}
                <select value={value} onChange={(e) => set(col.name, e.currentTarget.value)}>
                  <option value="">—</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              </label>
            )
          case 'json':
            return (
              <label key={col.name}>
                {label} <textarea rows={3} value={value} onInput={(e) => set(col.name, e.currentTarget.value)} />
              </label>
            )
          case 'integer':
          case 'number':
            return (
              <label key={col.name}>
                {label} <input type="number" step={col.type === 'integer' ? 1 : 'any'} value={value} onInput={(e) => set(col.name, e.currentTarget.value)} />
              </label>
            )
          case 'timestamp':
            return (
              <label key={col.name}>
                {label} <input type="datetime-local" value={value} onInput={(e) => set(col.name, e.currentTarget.value)} />
              </label>
            )
          default:
            return (
              <label key={col.name}>
                {label}{' '}
                <input
                  type="text"
                  pattern={col.type === 'uuid' ? '[0-9a-fA-F\\-]{36}' : undefined}
                  value={value}
                  onInput={(e) => set(col.name, e.currentTarget.value)}
                />
              </label>
            )
        }
      })}
      <FormActions busy={busy} save={row ? 'Save row' : 'Create row'} onCancel={() => onDone(false)} error={error} />
    </form>
  )
}
