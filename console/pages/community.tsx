import { useState } from 'preact/hooks'
import type { CommunityThread } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Pager, Section, useAction, useLoad, when } from '../ui'
import { Badge } from './engagement-ui'

const PAGE_SIZE = 20
const PERIODS = [
  { value: 'all_time', label: 'All time' },
  { value: 'year', label: 'This year' },
  { value: 'month', label: 'This month' },
  { value: 'week', label: 'This week' },
  { value: 'day', label: 'Today' },
] as const
type Period = (typeof PERIODS)[number]['value']

/** Community moderation: threads (lock, pin, delete) and the points leaderboard. */
export function Community() {
  return (
    <div class="eng-page">
      <Threads />
      <Leaderboard />
    </div>
  )
}

function Threads() {
  const [page, setPage] = useState(1)
  const [showDeleted, setShowDeleted] = useState(false)
  // Threads carry their author's id; the names come from the customers (one call per author on the page).
  const list = useLoad(async () => {
    const threads = await data(client.api.community.threads.get({ query: { page, pageSize: PAGE_SIZE, includeDeleted: showDeleted || undefined } }))
    const authors = [...new Set(threads.items.map((t) => t.customerId))]
    const named = await Promise.all(
      authors.map((id) =>
        data(client.api.customer.customers({ id }).get()).then(
          (c) => [id, c.name ?? c.email ?? null] as const,
          () => [id, null] as const,
        ),
      ),
    )
    return { ...threads, names: new Map(named) }
  }, [page, showDeleted])
  const act = useAction()
  const [note, setNote] = useState<string | null>(null)

  const change = (t: CommunityThread, patch: { locked?: boolean; pinned?: boolean }, done: string) =>
    act.run(async () => {
      await data(client.api.community.threads({ id: t.id }).patch(patch))
      setNote(`“${t.title}” ${done}.`)
      list.reload()
    })
  const remove = (t: CommunityThread) =>
    act.run(async () => {
      if (!(await ask(`Delete the thread “${t.title}” and hide its replies?`, 'Delete thread'))) return
      await data(client.api.community.threads({ id: t.id }).delete())
      setNote(`“${t.title}” deleted.`)
      list.reload()
    })

  return (
    <Section title="Community threads">
      <label>
        <input
          type="checkbox"
          checked={showDeleted}
          onChange={(e) => {
            setShowDeleted(e.currentTarget.checked)
            setPage(1)
          }}
        />{' '}
        Show deleted threads
      </label>
      <ErrorNote error={list.error ?? act.error} />
      {note && <p role="status">{note}</p>}
      <table>
        <thead>
          <tr>
            <th>Thread</th>
            <th class="keep">Moderate</th>
            <th>State</th>
            <th>Author</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>
                <strong>{t.title}</strong>
                {t.body && (
                  <>
                    <br />
                    <small class="muted">{t.body.length > 120 ? `${t.body.slice(0, 120)}…` : t.body}</small>
                  </>
                )}
              </td>
              <td class="keep">
                {t.deletedAt ? (
                  <Badge tone="bad">deleted</Badge>
                ) : (
                  <div class="row-actions">
                    <button
                      type="button"
                      disabled={act.busy}
                      onClick={() => change(t, { locked: !t.locked }, t.locked ? 'unlocked' : 'locked')}
                      aria-label={`${t.locked ? 'Unlock' : 'Lock'} ${t.title}`}
                    >
                      {t.locked ? 'Unlock' : 'Lock'}
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      disabled={act.busy}
                      onClick={() => change(t, { pinned: !t.pinned }, t.pinned ? 'unpinned' : 'pinned')}
                      aria-label={`${t.pinned ? 'Unpin' : 'Pin'} ${t.title}`}
                    >
                      {t.pinned ? 'Unpin' : 'Pin'}
                    </button>
                    <button type="button" class="danger" disabled={act.busy} onClick={() => remove(t)} aria-label={`Delete ${t.title}`}>
                      Delete
                    </button>
                  </div>
                )}
              </td>
              <td>
                {t.deletedAt && (
                  <>
                    <Badge tone="bad">deleted</Badge> <small class="muted">{when(t.deletedAt)}</small>{' '}
                  </>
                )}
                {t.pinned && <Badge tone="neutral">pinned</Badge>} {t.locked ? <Badge tone="warn">locked</Badge> : <Badge tone="good">open</Badge>}
              </td>
              <td>
                <a href={`#/customers/${t.customerId}`}>{list.data!.names.get(t.customerId) ?? <code>{t.customerId.slice(0, 8)}</code>}</a>
              </td>
              <td>{when(t.createdAt)}</td>
            </tr>
          ))}
          {list.data?.items.length === 0 && (
            <tr>
              <td colSpan={5}>No threads yet.</td>
            </tr>
          )}
        </tbody>
      </table>
      {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
    </Section>
  )
}

function Leaderboard() {
  const [period, setPeriod] = useState<Period>('all_time')
  const [page, setPage] = useState(1)
  const board = useLoad(() => data(client.api.community.leaderboard.get({ query: { period, page, pageSize: PAGE_SIZE } })), [period, page])
  const label = PERIODS.find((p) => p.value === period)!.label
  return (
    <Section title="Leaderboard">
      <label>
        Period{' '}
        <select
          value={period}
          onChange={(e) => {
            setPeriod(e.currentTarget.value as Period)
            setPage(1)
          }}
        >
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={board.error} />
      <table aria-label={`Leaderboard, ${label.toLowerCase()}`}>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Customer</th>
            <th scope="col" class="keep">
              Points
            </th>
            <th scope="col">Level</th>
          </tr>
        </thead>
        <tbody>
          {board.data?.items.map((e, i) => (
            <tr key={e.userId}>
              <td>{(page - 1) * PAGE_SIZE + i + 1}</td>
              <td>
                <a href={`#/customers/${e.userId}`}>{e.name ?? e.userId.slice(0, 8)}</a>
              </td>
              <td class="keep">{e.totalPoints}</td>
              <td>{e.level}</td>
            </tr>
          ))}
          {board.data?.items.length === 0 && (
            <tr>
              <td colSpan={4}>No points in this period.</td>
            </tr>
          )}
        </tbody>
      </table>
      {board.data && <Pager page={page} pageSize={PAGE_SIZE} total={board.data.total} onPage={setPage} />}
    </Section>
  )
}
