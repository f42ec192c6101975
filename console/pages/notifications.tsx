import { useState } from 'preact/hooks'
import type { NotificationPreference } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Pager, Section, useAction, useLoad, when } from '../ui'

const PAGE_SIZE = 20
const CATEGORY_LABELS: Record<NotificationPreference['category'], string> = {
  account: 'Account',
  community_reply: 'Replies to my threads',
  community_mention: 'Mentions',
  admin_announcement: 'Announcements',
}

/** Announcements to every customer, your per-category delivery choices, and your notifications. */
export function Notifications() {
  return (
    <div class="eng-page">
      <Announcement />
      <Preferences />
      <Inbox />
    </div>
  )
}

function Announcement() {
  const [form, setForm] = useState({ subject: '', body: '', email: true, sms: false })
  const [sent, setSent] = useState<string | null>(null)
  const act = useAction()
  const submit = async (e: Event) => {
    e.preventDefault()
    if (!(await ask(`Send “${form.subject}” to every customer of this ecosystem?`, 'Send to everyone'))) return
    const channels = [...(form.email ? (['email'] as const) : []), ...(form.sms ? (['sms'] as const) : [])]
    await act.run(async () => {
      const result = await data(client.api.notifications.announcements.post({ subject: form.subject, body: form.body, channels }))
      setSent(`Announcement “${form.subject}” sent to ${result.recipients} ${result.recipients === 1 ? 'customer' : 'customers'}.`)
      setForm({ subject: '', body: '', email: true, sms: false })
    })
  }
  return (
    <Section title="Send an announcement">
      <p class="muted">Every customer gets it in the app; e-mail and SMS go to those whose announcement preference allows them.</p>
      <form onSubmit={submit} class="stack">
        <label>
          Subject <input required maxLength={200} value={form.subject} onInput={(e) => setForm({ ...form, subject: e.currentTarget.value })} />
        </label>
        <label>
          Message <textarea required rows={4} value={form.body} onInput={(e) => setForm({ ...form, body: e.currentTarget.value })} />
        </label>
        <fieldset>
          <legend>Also send by</legend>
          <label class="check">
            <input type="checkbox" checked={form.email} onChange={(e) => setForm({ ...form, email: e.currentTarget.checked })} /> E-mail
          </label>
          <label class="check">
            <input type="checkbox" checked={form.sms} onChange={(e) => setForm({ ...form, sms: e.currentTarget.checked })} /> SMS
          </label>
        </fieldset>
        <div>
          <button type="submit" disabled={act.busy}>
            Send announcement
          </button>
        </div>
      </form>
      {sent && <p role="status">{sent}</p>}
      <ErrorNote error={act.error} />
    </Section>
  )
}

function Preferences() {
  const prefs = useLoad(() => data(client.api.notifications.preferences.get()), [])
  // The boxes show a change at once; a refused change puts the saved choice back.
  const [shown, setShown] = useState<Record<string, NotificationPreference>>({})
  const act = useAction()
  const [note, setNote] = useState<string | null>(null)
  const set = async (p: NotificationPreference, change: Partial<Pick<NotificationPreference, 'email' | 'sms'>>) => {
    const next = { ...p, ...change }
    setShown((s) => ({ ...s, [p.category]: next }))
    const ok = await act.run(async () => {
      const saved = await data(client.api.notifications.preferences({ category: p.category }).put({ email: next.email, sms: next.sms }))
      setShown((s) => ({ ...s, [p.category]: saved }))
      setNote(`${CATEGORY_LABELS[saved.category] ?? saved.category}: e-mail ${saved.email ? 'on' : 'off'}, SMS ${saved.sms ? 'on' : 'off'}.`)
    })
    if (!ok) setShown((s) => ({ ...s, [p.category]: p }))
  }
  return (
    <Section title="My notification preferences">
      <p class="muted">How notifications reach you in this ecosystem, besides the app.</p>
      <ErrorNote error={prefs.error ?? act.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col">E-mail</th>
            <th scope="col" class="keep">
              SMS
            </th>
          </tr>
        </thead>
        <tbody>
          {prefs.data?.map((loaded) => {
            const p = shown[loaded.category] ?? loaded
            const name = CATEGORY_LABELS[p.category] ?? p.category
            return (
              <tr key={p.category}>
                <th scope="row">{name}</th>
                <td>
                  <input type="checkbox" checked={p.email} aria-label={`${name} by e-mail`} onChange={(e) => set(p, { email: e.currentTarget.checked })} />
                </td>
                <td class="keep">
                  <input type="checkbox" checked={p.sms} aria-label={`${name} by SMS`} onChange={(e) => set(p, { sms: e.currentTarget.checked })} />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {note && <p role="status">{note}</p>}
    </Section>
  )
}

function Inbox() {
  const [page, setPage] = useState(1)
  const [unread, setUnread] = useState(false)
  const list = useLoad(() => data(client.api.notifications.get({ query: { page, pageSize: PAGE_SIZE, unread: unread || undefined } })), [page, unread])
  const act = useAction()
  const readAll = () =>
    act.run(async () => {
      await data(client.api.notifications['read-all'].post())
      list.reload()
    })
  const read = (id: string) =>
    act.run(async () => {
      await data(client.api.notifications.read({ id }).post())
      list.reload()
    })
  return (
    <Section title="My notifications">
      <div class="row-actions">
        <label>
          <input
            type="checkbox"
            checked={unread}
            onChange={(e) => {
              setUnread(e.currentTarget.checked)
              setPage(1)
            }}
          />{' '}
          Unread only
        </label>
        <button type="button" class="secondary" onClick={readAll} disabled={act.busy}>
          Mark all read
        </button>
      </div>
      <ErrorNote error={list.error ?? act.error} />
      <table>
        <thead>
          <tr>
            <th>Subject</th>
            <th class="keep">
              <span class="sr">Actions</span>
            </th>
            <th>Category</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((n) => (
            <tr key={n.id}>
              <td>
                {n.isRead ? n.subject : <strong>{n.subject}</strong>}
                <br />
                <small class="muted">{n.body.length > 140 ? `${n.body.slice(0, 140)}…` : n.body}</small>
              </td>
              <td class="keep">
                {!n.isRead && (
                  <button type="button" class="secondary" onClick={() => read(n.id)} aria-label={`Mark “${n.subject}” read`}>
                    Mark read
                  </button>
                )}
              </td>
              <td>{n.type}</td>
              <td>{when(n.createdAt)}</td>
            </tr>
          ))}
          {list.data?.items.length === 0 && (
            <tr>
              <td colSpan={4}>No notifications.</td>
            </tr>
          )}
        </tbody>
      </table>
      {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
    </Section>
  )
}
