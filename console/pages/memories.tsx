import { useState } from 'preact/hooks'
import type { PersonaMemory } from '../../client/index'
import { client, data } from '../api'
import { ErrorNote, Pager, Section, useAction, useLoad, when } from '../ui'

const PAGE_SIZE = 20
const TYPES: PersonaMemory['memoryType'][] = ['user', 'feedback', 'project', 'reference']
const STATUSES: PersonaMemory['status'][] = ['active', 'archived', 'superseded']

interface Filters {
  personaId: string
  memoryType: '' | PersonaMemory['memoryType']
  status: '' | PersonaMemory['status']
  scope: '' | PersonaMemory['scope']
  tag: string
}
type Option = [value: string, text: string]

/** Persona memories the signed-in member sees in the picked ecosystem (their own and the personas' global ones): filter, archive, restore. */
export function Memories() {
  const personas = useLoad(() => data(client.api.persona.personas.get({ query: { pageSize: 100 } })), [])
  const [filters, setFilters] = useState<Filters>({ personaId: '', memoryType: '', status: 'active', scope: '', tag: '' })
  const [page, setPage] = useState(1)
  const list = useLoad(
    () =>
      data(
        client.api.persona_memory.memories.get({
          query: {
            page,
            pageSize: PAGE_SIZE,
            personaId: filters.personaId || undefined,
            memoryType: filters.memoryType || undefined,
            status: filters.status || undefined,
            scope: filters.scope || undefined,
            tag: filters.tag.trim() || undefined,
          },
        }),
      ),
    [page, filters.personaId, filters.memoryType, filters.status, filters.scope, filters.tag],
  )
  const act = useAction()
  const filter = (patch: Partial<Filters>) => {
    setFilters({ ...filters, ...patch })
    setPage(1)
  }
  /** A filter picked from a list: [value, text] options. */
  const choice = (label: string, key: 'personaId' | 'memoryType' | 'status' | 'scope', options: Option[]) => (
    <label>
      {label}
      <select value={filters[key]} onChange={(e) => filter({ [key]: e.currentTarget.value })}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
  const personaName = (id: string) => personas.data?.items.find((p) => p.id === id)?.name ?? id
  const archive = async (m: PersonaMemory) => {
    if (await act.run(() => data(client.api.persona_memory.memories({ id: m.id }).archive.post()))) list.reload()
  }
  const restore = async (m: PersonaMemory) => {
    if (await act.run(() => data(client.api.persona_memory.memories({ id: m.id }).restore.post()))) list.reload()
  }

  return (
    <div class="team-page">
      <Section title="Persona memories">
        <p class="muted">Your own memories with each persona (in the console you act as your own customer) and the personas' global ones.</p>
        {/* biome-ignore lint/a11y/useSemanticElements: a form keeps Enter from reloading the page; the role names it a search, as <search> would */}
        <form class="filters" role="search" aria-label="Filter memories" onSubmit={(e) => e.preventDefault()}>
          {choice('Persona', 'personaId', [['', 'All personas'], ...(personas.data?.items.map((p): Option => [p.id, p.name]) ?? [])])}
          {choice('Type', 'memoryType', [['', 'All types'], ...TYPES.map((t): Option => [t, t])])}
          {choice('Status', 'status', [...STATUSES.map((s): Option => [s, s]), ['', 'any status']])}
          {choice('Scope', 'scope', [
            ['', 'Both scopes'],
            ['user', 'user (yours)'],
            ['persona', 'persona (global)'],
          ])}
          <label>
            Tag <input type="search" value={filters.tag} onInput={(e) => filter({ tag: e.currentTarget.value })} />
          </label>
        </form>
        <ErrorNote error={personas.error ?? list.error} />
        <ErrorNote error={act.error} />
        <table>
          <thead>
            <tr>
              <th>Memory</th>
              <th class="keep">Status</th>
              <th>Type</th>
              <th>Persona</th>
              <th>Scope</th>
              <th>Created</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((m) => (
              <tr key={m.id}>
                <td>
                  <details>
                    <summary>
                      <code>{m.slug}</code> {m.description}
                    </summary>
                    <p>{m.body}</p>
                    {m.tags.length > 0 && (
                      <p>
                        {m.tags.map((t) => (
                          <span key={t} class="badge">
                            {t}
                          </span>
                        ))}
                      </p>
                    )}
                  </details>
                </td>
                <td class="keep">{m.status}</td>
                <td>{m.memoryType}</td>
                <td>{personaName(m.personaId)}</td>
                <td>{m.scope}</td>
                <td>{when(m.createdAt)}</td>
                <td class="keep actions">
                  {m.status === 'active' && (
                    <button type="button" disabled={act.busy} onClick={() => void archive(m)} aria-label={`Archive ${m.slug}`}>
                      Archive
                    </button>
                  )}
                  {m.status === 'archived' && (
                    <button type="button" disabled={act.busy} onClick={() => void restore(m)} aria-label={`Restore ${m.slug}`}>
                      Restore
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && <p>No memories match.</p>}
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
    </div>
  )
}
