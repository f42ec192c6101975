import { useState } from 'preact/hooks'
import type { ChatConversationDetail, Customer } from '../../client/index'
import { bytes, client, data } from '../api'
import { useSupportSession } from '../support'
import { ask, ErrorNote, ListState, Pager, Section, UsageBar, useAction, useLoad, SearchBox } from '../ui'
import { CustomerPlan } from './customer-plan'

const PAGE_SIZE = 20

export function Customers() {
  const [q, setQ] = useState('')
  const [page, setPage] = useState(1)
  const [withService, setWithService] = useState(false)
  const list = useLoad(
    () => data(client.api.customer.customers.get({ query: { q: q || undefined, page, pageSize: PAGE_SIZE, includeServiceRecords: withService || undefined } })),
    [q, page, withService],
  )
  const [form, setForm] = useState({ externalId: '', name: '', email: '' })
  const { error, run } = useAction()

  const create = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      await data(client.api.customer.register.post({ externalId: form.externalId || undefined, name: form.name || undefined, email: form.email || undefined }))
      setForm({ externalId: '', name: '', email: '' })
      list.reload()
    })
  }

  return (
    <>
      <Section title="Customers">
        <SearchBox
          value={q}
          placeholder="e-mail, external id or name"
          onSearch={(next) => {
            setQ(next)
            setPage(1)
          }}
        />{' '}
        <label>
          <input
            type="checkbox"
            checked={withService}
            onChange={(e) => {
              setWithService(e.currentTarget.checked)
              setPage(1)
            }}
          />{' '}
          Show the team’s and alert contacts’ own records
        </label>
        <ErrorNote error={list.error} />
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>E-mail</th>
              <th>External id</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((c) => (
              <tr key={c.id}>
                <td>
                  <a href={`#/customers/${c.id}`}>{c.name ?? '(no name)'}</a>
                </td>
                <td>{c.email ?? ''}</td>
                <td>{c.externalId ?? ''}</td>
                <td>{new Date(c.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState
          load={list}
          count={list.data?.items.length}
          empty={q ? 'No customer matches.' : 'No customers yet: create the first one below, or let your app resolve them by external id.'}
        />
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      <Section title="New customer">
        <p class="muted">A customer needs at least a name, an e-mail or an external id.</p>
        <form onSubmit={create} class="inline" aria-label="New customer">
          <label>
            External id <input value={form.externalId} onInput={(e) => setForm({ ...form, externalId: e.currentTarget.value })} />
          </label>
          <label>
            Name <input value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
          </label>
          <label>
            E-mail <input type="email" value={form.email} onInput={(e) => setForm({ ...form, email: e.currentTarget.value })} />
          </label>
          <button type="submit">Create customer</button>
        </form>
        <ErrorNote error={error} />
      </Section>
    </>
  )
}

/** One customer, their conversations (read through a support session, audited, ended when the page is left) and delete. */
export function CustomerDetail({ id, go }: { id: string; go: (path: string) => void }) {
  const customer = useLoad(() => data(client.api.customer.customers({ id }).get()), [id])
  const usage = useLoad(() => data(client.api.usage.storage.customers({ userId: id }).get()), [id])
  const supportSession = useSupportSession()
  const support = supportSession.session?.client ?? null
  const [open, setOpen] = useState<ChatConversationDetail | null>(null)
  const { error, run } = useAction()

  const conversations = useLoad(async () => (support ? data(support.api.chat.conversations.get({ query: { pageSize: 50 } })) : null), [support])

  const readAsCustomer = () => run(() => supportSession.start(id))
  const endSupport = () => {
    supportSession.end()
    setOpen(null)
  }
  const remove = async () => {
    if (!(await ask(`Delete the customer ${customer.data?.name ?? customer.data?.externalId ?? id} and everything they own?`, 'Delete customer'))) return
    void run(async () => {
      await data(client.api.customer.customers({ id }).delete())
      go('#/customers')
    })
  }
  const c: Customer | undefined = customer.data
  return (
    <>
      <p>
        <a href="#/customers">← Customers</a>
      </p>
      <ErrorNote error={customer.error ?? error} />
      {c && (
        <Section title={c.name ?? '(no name)'}>
          <dl>
            <dt>Id</dt>
            <dd>
              <code>{c.id}</code>
            </dd>
            <dt>Created</dt>
            <dd>{new Date(c.createdAt).toLocaleString()}</dd>
          </dl>
          {usage.data && (
            <>
              <UsageBar used={usage.data.usageBytes} total={usage.data.quotaBytes} label="Storage used by this customer" />
              <p data-testid="customer-usage">
                {bytes(usage.data.usageBytes)} of {bytes(usage.data.quotaBytes)} used
              </p>
            </>
          )}
          <CustomerEdit customer={c} onSaved={customer.reload} />
          <button type="button" class="danger" onClick={remove}>
            Delete customer
          </button>
        </Section>
      )}
      <CustomerPlan customerId={id} />
      <Section title="Conversations">
        {support ? (
          <p class="muted">
            Reading as the customer: a support session in the audit log, until {new Date(supportSession.session!.expiresAt).toLocaleTimeString()}.{' '}
            <button type="button" class="secondary" onClick={endSupport}>
              End support session
            </button>
          </p>
        ) : (
          <button type="button" onClick={readAsCustomer}>
            Read conversations (support session)
          </button>
        )}
        <ErrorNote error={conversations.error} />
        <ul class="list">
          {conversations.data?.items.map((conv) => (
            <li key={conv.id}>
              <button
                type="button"
                class="link"
                onClick={() => support && run(async () => setOpen(await data(support.api.chat.conversations({ id: conv.id }).get())))}
              >
                {conv.title || '(untitled)'}
              </button>{' '}
              <small>{new Date(conv.updatedAt).toLocaleString()}</small>
            </li>
          ))}
          {support && conversations.data?.items.length === 0 && <li>No conversations.</li>}
        </ul>
        {open && (
          <div class="messages" role="log" aria-label={`Messages of ${open.conversation.title}`}>
            <h3>{open.conversation.title}</h3>
            {open.messages.map((m) => (
              <div key={m.id} class={`message ${m.role}`}>
                <strong>{m.role}</strong> <p>{m.content}</p>
              </div>
            ))}
          </div>
        )}
      </Section>
    </>
  )
}

type Editable = 'name' | 'email' | 'phone' | 'externalId'
const EDITABLE: { field: Editable; label: string; type: 'text' | 'email' | 'tel' }[] = [
  { field: 'name', label: 'Name', type: 'text' },
  { field: 'email', label: 'E-mail', type: 'email' },
  { field: 'phone', label: 'Phone', type: 'tel' },
  { field: 'externalId', label: 'External id', type: 'text' },
]
const isServiceRecord = (c: Customer) => /^(user|alert):/.test(c.externalId ?? '')

/** The customer's name, e-mail, phone and external id, changed in place: only what changed is sent, an emptied field is cleared. */
function CustomerEdit({ customer: c, onSaved }: { customer: Customer; onSaved: () => void }) {
  const [draft, setDraft] = useState<Record<Editable, string>>({
    name: c.name ?? '',
    email: c.email ?? '',
    phone: c.phone ?? '',
    externalId: c.externalId ?? '',
  })
  const act = useAction()
  const [saved, setSaved] = useState(false)
  const changes = Object.fromEntries(
    EDITABLE.filter(({ field }) => draft[field].trim() !== (c[field] ?? '')).map(({ field }) => [field, draft[field].trim() || null]),
  )
  const save = (e: Event) => {
    e.preventDefault()
    void act.run(async () => {
      await data(client.api.customer.customers({ id: c.id }).patch(changes))
      setSaved(true)
      onSaved()
    })
  }
  return (
    <form class="stack" aria-label="Edit customer" onSubmit={save}>
      {EDITABLE.map(({ field, label, type }) => (
        <label key={field}>
          {label}{' '}
          <input
            type={type as 'text'}
            value={draft[field]}
            readOnly={field === 'externalId' && isServiceRecord(c)}
            onInput={(e) => {
              setDraft({ ...draft, [field]: e.currentTarget.value })
              setSaved(false)
            }}
          />
        </label>
      ))}
      <div>
        <button type="submit" disabled={act.busy || Object.keys(changes).length === 0}>
          Save customer
        </button>{' '}
        {saved && <span role="status">Saved.</span>}
      </div>
      <ErrorNote error={act.error} />
    </form>
  )
}
