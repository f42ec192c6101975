import { useState } from 'preact/hooks'
import type { AuditEvent } from '../../client/index'
import { client, data } from '../api'
import type { PageEntry } from '../nav'
import { ErrorNote, isoFromLocal, ListState, Pager, Section, TimeRange, useLoad, when } from '../ui'
import { SendLog } from './messaging'
import { MONITORED_SITES_PATH } from './monitored-sites'
import { DeliveryCells, WEBHOOKS_PATH } from './webhooks'

const PAGE_SIZE = 20

/** Where the console shows the thing an audit event names, by its type (none for what has no page). */
const TARGET_PAGES: Record<string, (id: string) => string> = {
  customer: (id) => `#/customers/${id}`,
  webhook: (id) => `${WEBHOOKS_PATH}/${id}`,
  monitored_site: (id) => `${MONITORED_SITES_PATH}/${id}`,
  site_service: () => '#/site-services',
  team_member: () => '#/team',
  oauth_client: () => '#/oauth-clients',
  api_token: () => '#/tokens',
  auth_method: () => '#/sign-in-settings',
  memory: () => '#/memories',
  backup: () => '#/backups',
}

/** Action prefixes offered as suggestions (the filter takes any prefix). */
const ACTIONS = ['auth.', 'team.', 'registry.', 'customer.', 'integrations.', 'site.', 'contract.', 'billing.', 'storage.', 'oauth.', 'system.']

/** The Logs group of the sidebar: who changed what, messages sent, webhook deliveries; each filtered, each row linking to what it names. */
export const LOGS_PAGES: PageEntry[] = [
  {
    path: '#/logs/audit',
    label: 'Audit log',
    group: 'Logs',
    ecosystem: true,
    page: () => (
      <div class="eng-page">
        <AuditLog />
      </div>
    ),
  },
  {
    path: '#/logs/messages',
    label: 'Messages sent',
    group: 'Logs',
    ecosystem: true,
    page: () => (
      <div class="eng-page">
        <SendLog />
      </div>
    ),
  },
  {
    path: '#/logs/webhooks',
    label: 'Webhook deliveries',
    group: 'Logs',
    ecosystem: true,
    page: () => (
      <div class="eng-page">
        <Deliveries />
      </div>
    ),
  },
]

function AuditLog() {
  const [page, setPage] = useState(1)
  const [filter, setFilter] = useState({ from: '', to: '', actor: '', action: '' })
  const change = (next: Partial<typeof filter>) => {
    setFilter({ ...filter, ...next })
    setPage(1)
  }
  const log = useLoad(
    () =>
      data(
        client.api.audit.events.get({
          query: {
            page,
            pageSize: PAGE_SIZE,
            from: isoFromLocal(filter.from),
            to: isoFromLocal(filter.to),
            actor: filter.actor.trim() || undefined,
            action: filter.action.trim() || undefined,
          },
        }),
      ),
    [page, filter.from, filter.to, filter.actor, filter.action],
  )
  return (
    <Section title="Audit log">
      <div class="row-actions">
        <TimeRange from={filter.from} to={filter.to} onChange={(from, to) => change({ from, to })} />
        <label>
          Actor id <input value={filter.actor} onChange={(e) => change({ actor: e.currentTarget.value })} placeholder="an account, customer or token id" />
        </label>
        <label>
          Action{' '}
          <input list="audit-actions" value={filter.action} onChange={(e) => change({ action: e.currentTarget.value })} placeholder="starts with, e.g. team." />
        </label>
        <datalist id="audit-actions">
          {ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <button type="button" class="secondary" onClick={log.reload}>
          Refresh
        </button>
      </div>
      <ErrorNote error={log.error} />
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>Actor</th>
            <th>Action</th>
            <th>Target</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {log.data?.items.map((e) => (
            <tr key={e.id}>
              <td>{when(e.at)}</td>
              <td>
                <Actor event={e} onPick={(actor) => change({ actor })} />
              </td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>
                <Target event={e} />
              </td>
              <td class="wrap">
                <small>{Object.keys(e.metadata).length ? JSON.stringify(e.metadata) : '—'}</small>
                {e.ip && (
                  <>
                    <br />
                    <small class="muted">from {e.ip}</small>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ListState
        load={log}
        count={log.data?.items.length}
        empty={
          filter.from || filter.to || filter.actor || filter.action
            ? 'Nothing logged that matches: widen the time range or clear the filters.'
            : 'Nothing logged yet: sign-ins, team changes and settings changes appear here as they happen.'
        }
      />
      {log.data && <Pager page={page} pageSize={PAGE_SIZE} total={log.data.total} onPage={setPage} />}
    </Section>
  )
}

/** Who acted: a customer links to its page; any actor filters the log to itself. */
function Actor({ event: e, onPick }: { event: AuditEvent; onPick: (id: string) => void }) {
  const { type, id } = e.actor
  if (!id) return <span class="muted">{type} (unknown)</span>
  return (
    <>
      {type === 'customer' ? <a href={`#/customers/${id}`}>customer</a> : type.replace('_', ' ')}{' '}
      <button type="button" class="link" title="Only this actor's events" onClick={() => onPick(id)}>
        <code>{id.slice(0, 8)}</code>
      </button>
    </>
  )
}

function Target({ event: e }: { event: AuditEvent }) {
  const { type, id } = e.target
  const page = id ? TARGET_PAGES[type] : undefined
  const label = `${type.replace('_', ' ')}${id ? ` ${id.length > 12 ? `${id.slice(0, 8)}…` : id}` : ''}`
  return page && id ? <a href={page(id)}>{label}</a> : <span>{label}</span>
}

/** Deliveries to one endpoint, by status; each row opens the endpoint, where a delivery is retried. */
function Deliveries() {
  const hooks = useLoad(() => data(client.api.integrations.webhooks.get()), [])
  const [picked, setPicked] = useState('')
  const [status, setStatus] = useState<'' | 'pending' | 'succeeded' | 'failed'>('')
  const [page, setPage] = useState(1)
  const id = picked || hooks.data?.items[0]?.id || ''
  const list = useLoad(
    async () =>
      id ? data(client.api.integrations.webhooks({ id }).deliveries.get({ query: { page, pageSize: PAGE_SIZE, status: status || undefined } })) : null,
    [id, page, status],
  )
  return (
    <Section title="Webhook deliveries">
      <ErrorNote error={hooks.error ?? list.error} />
      {hooks.data?.items.length === 0 ? (
        <p>
          No webhook endpoints yet. <a href={WEBHOOKS_PATH}>Add one</a>.
        </p>
      ) : (
        <>
          <div class="row-actions">
            <label>
              Endpoint{' '}
              <select
                value={id}
                onChange={(e) => {
                  setPicked(e.currentTarget.value)
                  setPage(1)
                }}
              >
                {hooks.data?.items.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.url}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Status{' '}
              <select
                value={status}
                onChange={(e) => {
                  setStatus(e.currentTarget.value as typeof status)
                  setPage(1)
                }}
              >
                <option value="">All</option>
                <option value="pending">Pending</option>
                <option value="succeeded">Succeeded</option>
                <option value="failed">Failed</option>
              </select>
            </label>
            <button type="button" class="secondary" onClick={list.reload}>
              Refresh
            </button>
            {id && <a href={`${WEBHOOKS_PATH}/${id}`}>Open endpoint</a>}
          </div>
          <table>
            <thead>
              <tr>
                <th>Event</th>
                <th class="keep">Status</th>
                <th>Attempts</th>
                <th>Answer</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.items.map((d) => (
                <tr key={d.id}>
                  <DeliveryCells delivery={d} />
                </tr>
              ))}
            </tbody>
          </table>
          <ListState load={list} count={list.data?.items.length} empty={`No deliveries${status ? ` ${status}` : ''}.`} />
          {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
        </>
      )}
    </Section>
  )
}
