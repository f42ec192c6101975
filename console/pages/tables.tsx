import { useState } from 'preact/hooks'
import type { Contract, ContractAccess, ContractColumn, ContractRow } from '../../client/index'
import { client, data } from '../api'
import { RowEditor, shown } from './table-rows'
import { ask, ErrorNote, ListState, Pager, Section, useAction, useLoad, useSubpath, when } from '../ui'

export const TABLES_PATH = '#/tables'
const PAGE_SIZE = 20
const TYPES: ContractColumn['type'][] = ['text', 'integer', 'number', 'boolean', 'timestamp', 'json', 'uuid']
const SYSTEM = ['id', 'customerId', 'createdAt', 'updatedAt']
const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is', 'like', 'ilike', 'not.eq', 'not.in', 'not.is', 'not.ilike']

/** Tables (the API's contracts): define them and their columns, then browse, filter and edit their rows. */
export function Tables() {
  const name = useSubpath(TABLES_PATH)
  return <div class="eng-page">{name ? <TableDetail key={name} name={name} /> : <TableList />}</div>
}

function TableList() {
  const list = useLoad(() => data(client.api.contract.contracts.get({ query: { pageSize: 100 } })), [])
  const [name, setName] = useState('')
  const [columns, setColumns] = useState<ContractColumn[]>([{ name: '', type: 'text' }])
  const [access, setAccess] = useState<ContractAccess>({ read: 'own', create: true, update: 'own', delete: 'own' })
  const act = useAction()
  const create = async (e: Event) => {
    e.preventDefault()
    const ok = await act.run(() => data(client.api.contract.contracts.post({ name: name.trim(), columns, access })))
    if (ok) location.hash = `${TABLES_PATH}/${name.trim()}`
  }
  return (
    <>
      <Section title="Tables">
        <ErrorNote error={list.error} />
        <table>
          <thead>
            <tr>
              <th>Table</th>
              <th>Columns</th>
              <th>Customers may read</th>
              <th>Changed</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((c) => (
              <tr key={c.name}>
                <td>
                  <a href={`${TABLES_PATH}/${c.name}`}>{c.name}</a>
                </td>
                <td>{c.columns.map((col) => col.name).join(', ')}</td>
                <td>{c.access.read}</td>
                <td>{when(c.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={list} count={list.data?.items.length} empty="No tables yet: define the first one under New table." />
      </Section>
      <Section title="New table">
        <form class="stack" onSubmit={create}>
          <label>
            Table name <input required pattern="[a-z][a-z0-9_]{0,62}" value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="orders" />
          </label>
          {columns.map((col, i) => (
            <ColumnFields
              key={i}
              column={col}
              onChange={(next) => setColumns(columns.map((c, j) => (j === i ? next : c)))}
              onRemove={columns.length > 1 ? () => setColumns(columns.filter((_, j) => j !== i)) : undefined}
            />
          ))}
          <div>
            <button type="button" class="secondary" onClick={() => setColumns([...columns, { name: '', type: 'text' }])}>
              Another column
            </button>
          </div>
          <AccessFields access={access} onChange={setAccess} />
          <div>
            <button type="submit" disabled={act.busy}>
              Create table
            </button>
          </div>
        </form>
        <ErrorNote error={act.error} />
      </Section>
    </>
  )
}

/** One column's definition: name, type, and whether it may be empty, must be unique, is indexed. */
function ColumnFields({ column, onChange, onRemove }: { column: ContractColumn; onChange: (c: ContractColumn) => void; onRemove?: () => void }) {
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

function AccessFields({ access, onChange }: { access: ContractAccess; onChange: (a: ContractAccess) => void }) {
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

function TableDetail({ name }: { name: string }) {
  const contract = useLoad(() => data(client.api.contract.contracts({ name }).get()), [name])
  const act = useAction()
  const [adding, setAdding] = useState<ContractColumn>({ name: '', type: 'text' })
  const [access, setAccess] = useState<ContractAccess | null>(null)
  const alter = (patch: Parameters<ReturnType<typeof client.api.contract.contracts>['patch']>[0]) =>
    act.run(async () => {
      await data(client.api.contract.contracts({ name }).patch(patch))
      contract.reload()
    })
  const drop = async (col: string) => {
    if (!(await ask(`Drop the column “${col}” of ${name}? Rows keep its values until you erase dropped values.`, 'Drop column'))) return
    await alter({ dropColumns: [col] })
  }
  const erase = async () => {
    if (!(await ask(`Erase the values of ${c!.droppedColumns.join(', ')} from every row of ${name}?`, 'Erase values'))) return
    await alter({ confirm: true })
  }
  const remove = async () => {
    if (!(await ask(`Delete the table ${name} and all its rows?`, 'Delete table'))) return
    if (await act.run(() => data(client.api.contract.contracts({ name }).delete()))) location.hash = TABLES_PATH
  }
  const c = contract.data
  return (
    <>
      <p>
        <a href={TABLES_PATH}>← Tables</a>
      </p>
      <ErrorNote error={contract.error ?? act.error} />
      {c && (
        <>
          <Section title={`Table ${c.name}`}>
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
          </Section>
          <Rows key={c.version} contract={c} />
        </>
      )}
    </>
  )
}

/** The query a filter text stands for: `total=gte.100&paid=is.false&sort=-due` → repeated keys as arrays. */
function parseFilter(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of new URLSearchParams(text.trim().replace(/^\?/, ''))) {
    const had = out[key]
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value]
  }
  return out
}

function Rows({ contract: c }: { contract: Contract }) {
  const [page, setPage] = useState(1)
  const [filter, setFilter] = useState('')
  const [applied, setApplied] = useState('')
  const [builder, setBuilder] = useState({ field: c.columns[0]?.name ?? 'createdAt', op: 'eq', value: '' })
  const [editing, setEditing] = useState<ContractRow | 'new' | null>(null)
  const act = useAction()
  const rows = useLoad(
    // Column filters are defined at run time: the typed query knows only the fixed parameters.
    () => data(client.api.contract.contracts({ name: c.name }).rows.get({ query: { page, pageSize: PAGE_SIZE, ...parseFilter(applied) } as { page: number } })),
    [c.name, page, applied],
  )
  const apply = (text: string) => {
    setFilter(text)
    setApplied(text)
    setPage(1)
  }
  const addCondition = (e: Event) => {
    e.preventDefault()
    const condition = `${builder.field}=${builder.op}.${builder.value}`
    apply(filter.trim() ? `${filter.trim()}&${condition}` : condition)
  }
  const remove = async (row: ContractRow) => {
    if (!(await ask(`Delete the row ${row.id} of ${c.name}?`, 'Delete row'))) return
    if (await act.run(() => data(client.api.contract.contracts({ name: c.name }).rows({ id: row.id }).delete()))) rows.reload()
  }
  const fields = [...c.columns.map((col) => col.name), ...SYSTEM]
  return (
    <Section title="Rows">
      <form class="inline" aria-label="Add a condition" onSubmit={addCondition}>
        <label>
          Field{' '}
          <select value={builder.field} onChange={(e) => setBuilder({ ...builder, field: e.currentTarget.value })}>
            {fields.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <label>
          Operator{' '}
          <select value={builder.op} onChange={(e) => setBuilder({ ...builder, op: e.currentTarget.value })}>
            {OPERATORS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label>
          Value <input value={builder.value} onInput={(e) => setBuilder({ ...builder, value: e.currentTarget.value })} placeholder="100, (a,b), null, *text*" />
        </label>
        <button type="submit" class="secondary">
          Add condition
        </button>
      </form>
      <form
        class="inline"
        aria-label="Filter rows"
        onSubmit={(e) => {
          e.preventDefault()
          apply(filter)
        }}
      >
        <label class="grow">
          Filter{' '}
          <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} placeholder="total=gte.100&paid=is.false&sort=-createdAt" />
        </label>
        <button type="submit">Apply</button>
        {applied && (
          <button type="button" class="secondary" onClick={() => apply('')}>
            Clear
          </button>
        )}
      </form>
      <ErrorNote error={rows.error ?? act.error} />
      <div class="grid-scroll">
        <table aria-label={`Rows of ${c.name}`}>
          <thead>
            <tr>
              <th>Id</th>
              {c.columns.map((col) => (
                <th key={col.name}>{col.name}</th>
              ))}
              <th>Created</th>
              <th class="keep">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.data?.rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <code title={row.id}>{row.id.slice(0, 8)}</code>
                </td>
                {c.columns.map((col) => (
                  <td key={col.name}>{shown(row[col.name], col.type)}</td>
                ))}
                <td>{when(row.createdAt)}</td>
                <td class="keep">
                  <button type="button" class="secondary" aria-label={`Edit row ${row.id}`} onClick={() => setEditing(row)}>
                    Edit
                  </button>{' '}
                  <button type="button" class="danger" aria-label={`Delete row ${row.id}`} onClick={() => void remove(row)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {rows.data?.rows.length === 0 && (
              <tr>
                <td colSpan={c.columns.length + 3}>No rows{applied ? ' match' : ' yet'}.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {rows.data?.total !== undefined && <Pager page={page} pageSize={PAGE_SIZE} total={rows.data.total} onPage={setPage} />}
      {editing ? (
        <RowEditor
          key={editing === 'new' ? 'new' : editing.id}
          contract={c}
          row={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null)
            if (saved) rows.reload()
          }}
        />
      ) : (
        <p>
          <button type="button" onClick={() => setEditing('new')}>
            Add row
          </button>
        </p>
      )}
    </Section>
  )
}
