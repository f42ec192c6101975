import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { Contract, ContractColumn, ContractRow } from '../../client/index'
import { client, data } from '../api'
import { useAction } from '../ui'
import { fromInput, shown, toInput, ValueInput } from './table-rows'

const ARROWS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']

/** Focus to the value beside `from` in the grid, the way an arrow key points; nothing where there is none (the id, an edge). */
function moveFocus(from: HTMLElement, key: string) {
  const td = from.closest('td')
  const tr = td?.parentElement as HTMLTableRowElement | null
  if (!td || !tr) return
  const i = td.cellIndex
  const across = key === 'ArrowLeft' ? tr.cells[i - 1] : key === 'ArrowRight' ? tr.cells[i + 1] : undefined
  const sibling = (key === 'ArrowUp' ? tr.previousElementSibling : key === 'ArrowDown' ? tr.nextElementSibling : null) as HTMLTableRowElement | null
  ;(across ?? sibling?.cells[i])?.querySelector<HTMLElement>('button.cell')?.focus()
}

/**
 * One value of a row in the grid: a button showing it; pressed (click, Enter, F2) it becomes the
 * editor that fits its column, and focus comes back to it when the editor closes.
 */
export function Cell({
  contract,
  column,
  row,
  editing,
  onEditing,
  onSaved,
}: {
  contract: Contract
  column: ContractColumn
  row: ContractRow
  editing: boolean
  onEditing: (on: boolean) => void
  onSaved: (row: ContractRow) => void
}) {
  const button = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  useLayoutEffect(() => {
    if (editing || !refocus.current) return
    refocus.current = false
    button.current?.focus()
  }, [editing])
  if (editing) {
    const close = () => {
      refocus.current = true
      onEditing(false)
    }
    return <CellEditor contract={contract} column={column} row={row} onClose={close} onSaved={onSaved} />
  }
  return (
    <button
      ref={button}
      type="button"
      class="cell"
      title={`Edit ${column.name}`}
      onClick={() => onEditing(true)}
      onKeyDown={(e) => {
        if (e.key === 'F2') onEditing(true)
        else if (ARROWS.includes(e.key)) moveFocus(e.currentTarget, e.key)
        else return
        e.preventDefault()
      }}
    >
      {shown(row[column.name], column.type)}
    </button>
  )
}

/**
 * A value being edited: Enter (or Save) sends only this column in a PATCH, Escape (or Cancel) puts
 * the old value back without a request; Shift+Enter is a new line in a json value. A failed save
 * keeps the editor open with the API's message; a nullable column has a control that sets null.
 */
function CellEditor({
  contract,
  column,
  row,
  onClose,
  onSaved,
}: {
  contract: Contract
  column: ContractColumn
  row: ContractRow
  onClose: () => void
  onSaved: (row: ContractRow) => void
}) {
  const initial = toInput(row[column.name], column.type)
  const [value, setValue] = useState(initial)
  const { error, busy, run } = useAction()
  const form = useRef<HTMLFormElement>(null)
  // Before the browser paints: no key pressed after the editor shows may land elsewhere.
  useLayoutEffect(() => {
    const input = form.current?.querySelector<HTMLElement>('input, select, textarea')
    input?.focus()
    if (input instanceof HTMLInputElement && input.type !== 'datetime-local') input.select()
  }, [])
  const save = (next: () => unknown) => {
    if (busy) return
    void run(async () => {
      const body = { [column.name]: next() }
      onSaved(await data(client.api.contract.contracts({ name: contract.name }).rows({ id: row.id }).patch(body)))
      onClose()
    })
  }
  const commit = () => (value === initial ? onClose() : save(() => fromInput(value, column)))
  const errorId = `cell-error-${row.id}-${column.name}`
  return (
    <form
      ref={form}
      class="cell-editor"
      aria-label={`Edit ${column.name}`}
      aria-busy={busy}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        commit()
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onClose()
        else if (e.key === 'Enter' && !(e.shiftKey && column.type === 'json') && !(e.target instanceof HTMLButtonElement)) commit()
        else return
        e.preventDefault()
        e.stopPropagation()
      }}
    >
      <ValueInput
        column={column}
        value={value}
        onValue={setValue}
        attributes={{ 'aria-label': column.name, 'aria-invalid': !!error, 'aria-describedby': error ? errorId : undefined }}
      />
      <span class="row-actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onClose}>
          Cancel
        </button>
        {column.nullable !== false && (
          <button type="button" class="secondary" disabled={busy} onClick={() => save(() => null)}>
            Set null
          </button>
        )}
        <span class="muted" role="status">
          {busy ? 'Saving…' : ''}
        </span>
      </span>
      {error && (
        <span class="error" role="alert" id={errorId}>
          {error}
        </span>
      )}
    </form>
  )
}
