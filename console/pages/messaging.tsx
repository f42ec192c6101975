import { useState } from 'preact/hooks'
import type { MessagingTemplate, MessagingTemplateCreate } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, isoFromLocal, Pager, Section, TimeRange, useAction, useLoad, when } from '../ui'
import { Badge } from './engagement-ui'

const PAGE_SIZE = 20
type Category = MessagingTemplateCreate['category']
const CATEGORIES: Category[] = ['account', 'community_reply', 'community_mention', 'admin_announcement', 'transactional']
/** A template saved before categories were checked counts as an announcement, as the server sends it. */
const categoryOf = (stored: string): Category => CATEGORIES.find((c) => c === stored) ?? 'admin_announcement'
const EMPTY: { name: string; category: Category; subject: string; textBody: string; htmlBody: string; smsBody: string } = {
  name: '',
  category: 'account',
  subject: '',
  textBody: '',
  htmlBody: '',
  smsBody: '',
}

/** Message templates (list, create, edit) and the log of send attempts. */
export function Messaging() {
  return (
    <div class="eng-page">
      <ProviderStatus />
      <Templates />
      <SendLog />
    </div>
  )
}

function ProviderStatus() {
  const status = useLoad(() => data(client.api.messaging.status.get()), [])
  if (status.error) return <ErrorNote error={status.error} />
  if (!status.data) return null
  const say = (on: boolean) => (on ? 'provider configured' : 'kept in the local outbox')
  return (
    <p class="muted">
      E-mail: {say(status.data.email)}. SMS: {say(status.data.sms)}. (Providers are set under Site services.)
    </p>
  )
}

function Templates() {
  const [page, setPage] = useState(1)
  const list = useLoad(() => data(client.api.messaging.templates.get({ query: { page, pageSize: PAGE_SIZE } })), [page])
  const [editing, setEditing] = useState<MessagingTemplate | null>(null)
  const [form, setForm] = useState(EMPTY)
  const [note, setNote] = useState<string | null>(null)
  const act = useAction()

  const edit = (t: MessagingTemplate) => {
    setEditing(t)
    setNote(null)
    setForm({ name: t.name, category: categoryOf(t.category), subject: t.subject, textBody: t.textBody, htmlBody: t.htmlBody, smsBody: t.smsBody ?? '' })
    requestAnimationFrame(() => document.getElementById('template-name')?.focus())
  }
  const cancel = () => {
    setEditing(null)
    setForm(EMPTY)
  }
  const submit = async (e: Event) => {
    e.preventDefault()
    const body = { ...form, smsBody: form.smsBody || null }
    const ok = await act.run(async () => {
      if (editing) await data(client.api.messaging.templates({ id: editing.id }).patch(body))
      else await data(client.api.messaging.templates.post(body))
    })
    if (ok) {
      setNote(editing ? `Template “${form.name}” saved.` : `Template “${form.name}” created.`)
      cancel()
      list.reload()
    }
  }
  const remove = (t: MessagingTemplate) =>
    act.run(async () => {
      if (!(await ask(`Delete the template “${t.name}”?`, 'Delete template'))) return
      await data(client.api.messaging.templates({ id: t.id }).delete())
      if (editing?.id === t.id) cancel()
      list.reload()
    })
  const field = (key: keyof typeof EMPTY) => ({
    value: form[key],
    onInput: (e: Event) => setForm({ ...form, [key]: (e.currentTarget as HTMLInputElement).value }),
  })

  return (
    <>
      <Section title="Message templates">
        <ErrorNote error={list.error} />
        {note && <p role="status">{note}</p>}
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th class="keep">
                <span class="sr">Actions</span>
              </th>
              <th>Category</th>
              <th>Subject</th>
              <th>Changed</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td class="keep">
                  <div class="row-actions">
                    <button type="button" class="secondary" onClick={() => edit(t)} aria-label={`Edit ${t.name}`}>
                      Edit
                    </button>
                    <button type="button" class="danger" onClick={() => remove(t)} disabled={act.busy} aria-label={`Delete ${t.name}`}>
                      Delete
                    </button>
                  </div>
                </td>
                <td>{t.category}</td>
                <td>{t.subject}</td>
                <td>{when(t.updatedAt)}</td>
              </tr>
            ))}
            {list.data?.items.length === 0 && (
              <tr>
                <td colSpan={5}>No templates yet.</td>
              </tr>
            )}
          </tbody>
        </table>
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      <Section title={editing ? `Edit template “${editing.name}”` : 'New template'}>
        <p class="muted">
          Use <code>{'{{name}}'}</code> placeholders; <code>{'{{customer.name}}'}</code> and <code>{'{{customer.email}}'}</code> are filled in from the
          customer.
        </p>
        <form onSubmit={submit} class="stack">
          <label>
            Template name <input id="template-name" required maxLength={200} {...field('name')} />
          </label>
          <label>
            Category{' '}
            <select value={form.category} onInput={(e) => setForm({ ...form, category: categoryOf((e.currentTarget as HTMLSelectElement).value) })}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label>
            Subject <input required {...field('subject')} />
          </label>
          <label>
            Text body <textarea required rows={4} {...field('textBody')} />
          </label>
          <label>
            HTML body <textarea required rows={4} {...field('htmlBody')} />
          </label>
          <label>
            SMS body (optional) <textarea rows={2} {...field('smsBody')} />
          </label>
          <div class="row-actions">
            <button type="submit" disabled={act.busy}>
              {editing ? 'Save template' : 'Create template'}
            </button>
            {editing && (
              <button type="button" class="secondary" onClick={cancel}>
                Cancel
              </button>
            )}
          </div>
        </form>
        <ErrorNote error={act.error} />
      </Section>
    </>
  )
}

/** The log of send attempts, by channel, result and time (here and on the Logs page). */
export function SendLog() {
  const [page, setPage] = useState(1)
  const [channel, setChannel] = useState<'' | 'email' | 'sms'>('')
  const [status, setStatus] = useState<'' | 'sent' | 'failed' | 'delivered' | 'undelivered'>('')
  const [range, setRange] = useState({ from: '', to: '' })
  const log = useLoad(
    () =>
      data(
        client.api.messaging.log.get({
          query: {
            page,
            pageSize: PAGE_SIZE,
            channel: channel || undefined,
            status: status || undefined,
            since: isoFromLocal(range.from),
            until: isoFromLocal(range.to),
          },
        }),
      ),
    [page, channel, status, range.from, range.to],
  )
  return (
    <Section title="Send log">
      <div class="row-actions">
        <label>
          Channel{' '}
          <select
            value={channel}
            onChange={(e) => {
              setChannel(e.currentTarget.value as typeof channel)
              setPage(1)
            }}
          >
            <option value="">All</option>
            <option value="email">E-mail</option>
            <option value="sms">SMS</option>
          </select>
        </label>
        <label>
          Result{' '}
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as typeof status)
              setPage(1)
            }}
          >
            <option value="">All</option>
            <option value="sent">Sent</option>
            <option value="delivered">Delivered</option>
            <option value="undelivered">Undelivered</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <TimeRange
          from={range.from}
          to={range.to}
          onChange={(from, to) => {
            setRange({ from, to })
            setPage(1)
          }}
        />
        <button type="button" class="secondary" onClick={log.reload}>
          Refresh
        </button>
      </div>
      <ErrorNote error={log.error} />
      <table>
        <thead>
          <tr>
            <th>Recipient</th>
            <th class="keep">Result</th>
            <th>Channel</th>
            <th>Subject</th>
            <th>Sent</th>
          </tr>
        </thead>
        <tbody>
          {log.data?.items.map((m) => (
            <tr key={m.id}>
              <td class="wrap">
                <a href={`#/customers/${m.customerId}`}>{m.recipient}</a>
              </td>
              <td class="keep">
                <Badge tone={m.status === 'sent' || m.status === 'delivered' ? 'good' : 'bad'}>{m.status}</Badge>
                {m.errorMessage && (
                  <>
                    <br />
                    <small class="error">{m.errorMessage}</small>
                  </>
                )}
              </td>
              <td>{m.channel === 'email' ? 'E-mail' : 'SMS'}</td>
              <td>{m.subject ?? (m.body.length > 60 ? `${m.body.slice(0, 60)}…` : m.body)}</td>
              <td>{when(m.createdAt)}</td>
            </tr>
          ))}
          {log.data?.items.length === 0 && (
            <tr>
              <td colSpan={5}>Nothing sent yet.</td>
            </tr>
          )}
        </tbody>
      </table>
      {log.data && <Pager page={page} pageSize={PAGE_SIZE} total={log.data.total} onPage={setPage} />}
    </Section>
  )
}
