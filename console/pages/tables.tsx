import { useState } from 'preact/hooks'
import type { ContractAccess, ContractColumn } from '../../client/index'
import { client, data } from '../api'
import { ErrorNote, ListState, Section, useAction, useLoad, useSubpath, when } from '../ui'
import { Rows } from './table-grid'
import { AccessFields, ColumnFields, Schema } from './table-schema'
import './table-grid.css'

export const TABLES_PATH = '#/tables'

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

/** A table: its rows first, its definition behind the Schema tab (remembered in the address, `…/schema`). */
function TableDetail({ name }: { name: string }) {
  const contract = useLoad(() => data(client.api.contract.contracts({ name }).get()), [name])
  const [tab, setTab] = useState<Tab>(location.hash.endsWith('/schema') ? 'schema' : 'rows')
  const pick = (next: Tab) => {
    setTab(next)
    history.replaceState(null, '', `${TABLES_PATH}/${name}${next === 'schema' ? '/schema' : ''}`)
  }
  const c = contract.data
  return (
    <>
      <p>
        <a href={TABLES_PATH}>← Tables</a>
      </p>
      <ErrorNote error={contract.error} />
      {c && (
        <Section title={`Table ${c.name}`}>
          <Tabs label={`Table ${c.name}`} tab={tab} onPick={pick} />
          <div role="tabpanel" id={`table-${tab}`} aria-labelledby={`table-tab-${tab}`}>
            {tab === 'rows' ? (
              <Rows key={c.version} contract={c} />
            ) : (
              <Schema contract={c} onChanged={contract.reload} onDeleted={() => (location.hash = TABLES_PATH)} />
            )}
          </div>
        </Section>
      )}
    </>
  )
}

type Tab = 'rows' | 'schema'
const TABS: { tab: Tab; label: string }[] = [
  { tab: 'rows', label: 'Rows' },
  { tab: 'schema', label: 'Schema' },
]

/** The tabs of a table (ARIA tabs: the picked one in the tab order, arrow keys, Home and End move between them). */
function Tabs({ label, tab, onPick }: { label: string; tab: Tab; onPick: (tab: Tab) => void }) {
  const key = (e: KeyboardEvent) => {
    const at = TABS.findIndex((t) => t.tab === tab)
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: TABS.length - 1 }[e.key]
    if (to === undefined) return
    e.preventDefault()
    const next = TABS[(to + TABS.length) % TABS.length]!.tab
    onPick(next)
    document.getElementById(`table-tab-${next}`)?.focus()
  }
  return (
    <div class="tabs" role="tablist" aria-label={label}>
      {TABS.map((t) => (
        <button
          key={t.tab}
          type="button"
          role="tab"
          id={`table-tab-${t.tab}`}
          aria-selected={t.tab === tab}
          aria-controls={t.tab === tab ? `table-${t.tab}` : undefined}
          tabIndex={t.tab === tab ? 0 : -1}
          onClick={() => onPick(t.tab)}
          onKeyDown={key}
        >
          {t.label}
        </button>
      ))}
    </div>
  )
}
