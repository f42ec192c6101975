import { useState } from 'preact/hooks'
import { type Contract, type ContractColumn, EcobaseError } from '../../client/index'
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
export function toInput(value: unknown, type: ContractColumn['type']): string {
  if (value === null || value === undefined) return ''
  if (type === 'timestamp') {
    const d = new Date(String(value))
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
  }
  if (type === 'json') return JSON.stringify(value, null, 2)
  return String(value)
}

export function fromInput(text: string, col: ContractColumn): unknown {
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
        // Refused before it is sent, in the shape the API's own refusals have.
        throw new EcobaseError(0, 'validation_failed', `body.${col.name}: not valid JSON`)
      }
    default:
      return text
  }
}

/** What a value input says to assistive technology beyond its value (its label, where no <label> wraps it; its error). */
export interface ValueAttributes {
  id?: string
  'aria-label'?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string
  disabled?: boolean
}

/**
 * The input that fits a column's type, holding the value as text (toInput/fromInput): a select for
 * boolean (— is null), a textarea for json, a number input stepping as the column does, a
 * datetime-local for timestamp (the operator's time zone), text otherwise (uuid checked by pattern).
 */
export function ValueInput({
  column: col,
  value,
  onValue,
  attributes,
}: {
  column: ContractColumn
  value: string
  onValue: (v: string) => void
  attributes?: ValueAttributes
}) {
  switch (col.type) {
    case 'boolean':
      return (
        <select value={value} onChange={(e) => onValue(e.currentTarget.value)} {...attributes}>
          <option value="">—</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      )
    case 'json':
      return <textarea rows={3} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...attributes} />
    case 'integer':
    case 'number':
      return <input type="number" step={col.type === 'integer' ? 1 : 'any'} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...attributes} />
    case 'timestamp':
      return <input type="datetime-local" value={value} onInput={(e) => onValue(e.currentTarget.value)} {...attributes} />
    default:
      return (
        <input
          type="text"
          pattern={col.type === 'uuid' ? '[0-9a-fA-F\\-]{36}' : undefined}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          {...attributes}
        />
      )
  }
}

/** Adds a row: an input that fits each column's type; the columns left empty are not sent (they take their default). */
export function NewRow({ contract: c, onDone }: { contract: Contract; onDone: (saved: boolean) => void }) {
  const [values, setValues] = useState<Record<string, string>>({})
  const { error, busy, run } = useAction()
  const save = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      const given = c.columns.filter((col) => (values[col.name] ?? '') !== '')
      await data(
        client.api.contract.contracts({ name: c.name }).rows.post(Object.fromEntries(given.map((col) => [col.name, fromInput(values[col.name]!, col)]))),
      )
      onDone(true)
    })
  }
  return (
    <form class="stack" aria-label="New row" onSubmit={save}>
      <h3>New row</h3>
      {c.columns.map((col) => (
        <label key={col.name} htmlFor={`new-row-${col.name}`}>
          {col.name}
          {col.nullable === false ? ' (required)' : ''}{' '}
          <ValueInput
            column={col}
            value={values[col.name] ?? ''}
            onValue={(v) => setValues({ ...values, [col.name]: v })}
            attributes={{ id: `new-row-${col.name}` }}
          />
        </label>
      ))}
      <FormActions busy={busy} save="Create row" onCancel={() => onDone(false)} error={error} />
    </form>
  )
}
