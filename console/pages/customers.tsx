import { useEffect, useState } from 'preact/hooks'
import { createClient, type ChatConversationDetail, type Customer } from '../../client/index'
import { bytes, client, data } from '../api'
import { ask, ErrorNote, Pager, Section, UsageBar, useAction, useLoad } from '../ui'
import { CustomerPlan } from './billing'

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
        <label class="search">
          Search{' '}
          <input
            type="search"
            value={q}
            onInput={(e) => {
              setQ(e.currentTarget.value)
              setPage(1)
            }}
            placeholder="e-mail, external id or name"
          />
        </label>{' '}
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
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      <Section title="New customer">
        <form onSubmit={create} class="inline">
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
      {list.data?.items.length === 0 && !q && <p>No customers yet.</p>}
    </>
  )
}

/** One customer, their conversations (read through a short customer session, for support) and delete. */
export function CustomerDetail({ id, go }: { id: string; go: (path: string) => void }) {
  const customer = useLoad(() => data(client.api.customer.customers({ id }).get()), [id])
  const usage = useLoad(() => data(client.api.usage.storage.customers({ userId: id }).get()), [id])
  const [support, setSupport] = useState<ReturnType<typeof createClient> | null>(null)
  const [open, setOpen] = useState<ChatConversationDetail | null>(null)
  const { error, run } = useAction()
  // The support session ends when the page does.
  useEffect(() => () => void support?.logout(), [support])

  const conversations = useLoad(async () => (support ? data(support.api.chat.conversations.get({ query: { pageSize: 50 } })) : null), [support])

  const readAsCustomer = () =>
    run(async () => {
      const tokens = await data(client.api.customer.token.post({ customerId: id }))
      setSupport(createClient({ baseUrl: '', tokens: { token: tokens.token, refreshToken: tokens.refreshToken } }))
    })
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
            <dt>E-mail</dt>
            <dd>{c.email ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{c.phone ?? '—'}</dd>
            <dt>External id</dt>
            <dd>{c.externalId ?? '—'}</dd>
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
          <button type="button" class="danger" onClick={remove}>
            Delete customer
          </button>
        </Section>
      )}
      <CustomerPlan customerId={id} />
      <Section title="Conversations">
        {!support && (
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
