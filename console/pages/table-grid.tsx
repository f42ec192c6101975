import { useEffect, useState } from 'preact/hooks'
import type { Contract, ContractRow } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Pager, useAction, useLoad, when } from '../ui'
import { Cell } from './table-cell'
import { NewRow } from './table-rows'

const PAGE_SIZE = 20
const SYSTEM = ['id', 'customerId', 'createdAt', 'updatedAt']
const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is', 'like', 'ilike', 'not.eq', 'not.in', 'not.is', 'not.ilike']

/** The query a filter text stands for: `total=gte.100&paid=is.false&sort=-due` → repeated keys as arrays. */
function parseFilter(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of new URLSearchParams(text.trim().replace(/^\?/, ''))) {
    const had = out[key]
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value]
  }
  return out
}

export function Rows({ contract: c }: { contract: Contract }) {
  const [page, setPage] = useState(1)
  const [filter, setFilter] = useState('')
  const [applied, setApplied] = useState('')
  const [builder, setBuilder] = useState({ field: c.columns[0]?.name ?? 'createdAt', op: 'eq', value: '' })
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<{ id: string; column: string } | null>(null)
  // Rows saved in the grid since the page was loaded: shown in place (no reload, no jump), forgotten at the next load.
  const [saved, setSaved] = useState<Record<string, ContractRow>>({})
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
  useEffect(() => setSaved({}), [rows.data])
  const fields = [...c.columns.map((col) => col.name), ...SYSTEM]
  return (
    <>
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
          {rows.data?.rows.map((loaded) => {
            const row = saved[loaded.id] ?? loaded
            return (
              <tr key={row.id}>
                <td>
                  <code title={row.id}>{row.id.slice(0, 8)}</code>
                </td>
                {c.columns.map((col) => (
                  <td key={col.name}>
                    <Cell
                      contract={c}
                      column={col}
                      row={row}
                      editing={editing?.id === row.id && editing.column === col.name}
                      onEditing={(on) =>
                        setEditing((now) => (on ? { id: row.id, column: col.name } : now?.id === row.id && now.column === col.name ? null : now))
                      }
                      onSaved={(next) => setSaved((s) => ({ ...s, [next.id]: next }))}
                    />
                  </td>
                ))}
                <td>{when(row.createdAt)}</td>
                <td class="keep">
                  <button type="button" class="danger" aria-label={`Delete row ${row.id}`} onClick={() => void remove(row)}>
                    Delete
                  </button>
                </td>
              </tr>
            )
          })}
          {rows.data?.rows.length === 0 && (
            <tr>
              <td colSpan={c.columns.length + 3}>No rows{applied ? ' match' : ' yet'}.</td>
            </tr>
          )}
        </tbody>
      </table>
      {rows.data?.total !== undefined && <Pager page={page} pageSize={PAGE_SIZE} total={rows.data.total} onPage={setPage} />}
      {adding ? (
        <NewRow
          contract={c}
          onDone={(created) => {
            setAdding(false)
            if (created) rows.reload()
          }}
        />
      ) : (
        <p>
          <button type="button" onClick={() => setAdding(true)}>
            Add row
          </button>
        </p>
      )}
    </>
  )
}
