import { useState } from 'preact/hooks'
import type { Contract, ContractAccess, ContractColumn } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, useAction } from '../ui'

const TYPES: ContractColumn['type'][] = ['text', 'integer', 'number', 'boolean', 'timestamp', 'json', 'uuid']

/** One column's definition: name, type, and whether it may be empty, must be unique, is indexed. */
export function ColumnFields({ column, onChange, onRemove }: { column: ContractColumn; onChange: (c: ContractColumn) => void; onRemove?: () => void }) {
  return (
    <fieldset class="inline column">
      <label>
        Column name <input required pattern="[a-z][a-z0-9_]{0,62}" value={column.name} onInput={(e) => onChange({ ...column, name: e.currentTarget.value })} />
      </label>
      <label>
        Column type{' '}
        <select value={column.type} onChange={(e) => onChange({ ...column, type: e.currentTarget.value as ContractColumn['type'] })}>
          {TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label class="check">
        <input type="checkbox" checked={column.nullable === false} onChange={(e) => onChange({ ...column, nullable: !e.currentTarget.checked })} /> Required
      </label>
      <label class="check">
        <input type="checkbox" checked={!!column.unique} onChange={(e) => onChange({ ...column, unique: e.currentTarget.checked })} /> Unique
      </label>
      <label class="check">
        <input type="checkbox" checked={!!column.indexed} onChange={(e) => onChange({ ...column, indexed: e.currentTarget.checked })} /> Indexed
      </label>
      {onRemove && (
        <button type="button" class="secondary" onClick={onRemove}>
          Remove column
        </button>
      )}
    </fieldset>
  )
}

export function AccessFields({ access, onChange }: { access: ContractAccess; onChange: (a: ContractAccess) => void }) {
  const scope = (key: 'read' | 'update' | 'delete', label: string) => (
    <label>
      {label}{' '}
      <select value={access[key]} onChange={(e) => onChange({ ...access, [key]: e.currentTarget.value as ContractAccess['read'] })}>
        <option value="none">none</option>
        <option value="own">their own rows</option>
        <option value="all">all rows</option>
      </select>
    </label>
  )
  return (
    <fieldset class="inline">
      <legend>What customers may do (admins may do everything)</legend>
      {scope('read', 'Read')}
      <label class="check">
        <input type="checkbox" checked={access.create} onChange={(e) => onChange({ ...access, create: e.currentTarget.checked })} /> Create rows
      </label>
      {scope('update', 'Update')}
      {scope('delete', 'Delete')}
    </fieldset>
  )
}

/** A table's definition: its columns (add, drop, erase dropped values), what customers may do, and deleting it. */
export function Schema({ contract: c, onChanged, onDeleted }: { contract: Contract; onChanged: () => void; onDeleted: () => void }) {
  const name = c.name
  const act = useAction()
  const [adding, setAdding] = useState<ContractColumn>({ name: '', type: 'text' })
  const [access, setAccess] = useState<ContractAccess | null>(null)
  const alter = (patch: Parameters<ReturnType<typeof client.api.contract.contracts>['patch']>[0]) =>
    act.run(async () => {
      await data(client.api.contract.contracts({ name }).patch(patch))
      onChanged()
    })
  const drop = async (col: string) => {
    if (!(await ask(`Drop the column “${col}” of ${name}? Rows keep its values until you erase dropped values.`, 'Drop column'))) return
    await alter({ dropColumns: [col] })
  }
  const erase = async () => {
    if (!(await ask(`Erase the values of ${c.droppedColumns.join(', ')} from every row of ${name}?`, 'Erase values'))) return
    await alter({ confirm: true })
  }
  const remove = async () => {
    if (!(await ask(`Delete the table ${name} and all its rows?`, 'Delete table'))) return
    if (await act.run(() => data(client.api.contract.contracts({ name }).delete()))) onDeleted()
  }
  return (
    <>
      <ErrorNote error={act.error} />
      <table aria-label="Columns">
        <thead>
          <tr>
            <th>Column</th>
            <th>Type</th>
            <th>Rules</th>
            <th class="keep">
              <span class="sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {c.columns.map((col) => (
            <tr key={col.name}>
              <td>{col.name}</td>
              <td>{col.type}</td>
              <td>
                {[
                  col.nullable === false && 'required',
                  col.unique && 'unique',
                  col.indexed && 'indexed',
                  col.default !== undefined && `default ${JSON.stringify(col.default)}`,
                ]
                  .filter(Boolean)
                  .join(', ') || '—'}
              </td>
              <td class="keep">
                <button type="button" class="danger" aria-label={`Drop column ${col.name}`} onClick={() => void drop(col.name)}>
                  Drop
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {c.droppedColumns.length > 0 && (
        <p>
          Dropped, values kept: {c.droppedColumns.join(', ')}.{' '}
          <button type="button" class="secondary" onClick={() => void erase()}>
            Erase dropped values
          </button>
        </p>
      )}
      <form
        class="stack"
        aria-label="Add a column"
        onSubmit={(e) => {
          e.preventDefault()
          void alter({ addColumns: [adding] }).then((ok) => ok && setAdding({ name: '', type: 'text' }))
        }}
      >
        <ColumnFields column={adding} onChange={setAdding} />
        <div>
          <button type="submit" disabled={act.busy}>
            Add column
          </button>
        </div>
      </form>
      <form
        class="stack"
        aria-label="Access"
        onSubmit={(e) => {
          e.preventDefault()
          if (access) void alter({ access }).then((ok) => ok && setAccess(null))
        }}
      >
        <AccessFields access={access ?? c.access} onChange={setAccess} />
        <div>
          <button type="submit" disabled={act.busy || !access}>
            Save access
          </button>{' '}
          <button type="button" class="danger" onClick={() => void remove()}>
            Delete table
          </button>
        </div>
      </form>
    </>
  )
}
