import { useEffect, useState } from 'preact/hooks'
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, ListState, Pager, SecretOnce, Section, useAction, useLoad, useSubpath, when } from '../ui'
import { Badge, ms } from './engagement-ui'

export const WEBHOOKS_PATH = '#/webhooks'
const PAGE_SIZE = 20

const deliveryTone = (s: WebhookDelivery['status']) => (s === 'succeeded' ? 'good' : s === 'failed' ? 'bad' : 'warn')

/** Outbound webhook endpoints: list, create (the signing secret shown once), deliveries and retry. */
export function Webhooks() {
  const id = useSubpath(WEBHOOKS_PATH)
  return <div class="eng-page">{id ? <WebhookDetail key={id} id={id} /> : <WebhookList />}</div>
}

function WebhookList() {
  const list = useLoad(() => data(client.api.integrations.webhooks.get()), [])
  const [form, setForm] = useState({ url: '', description: '', events: [] as string[] })
  const [created, setCreated] = useState<WebhookWithSecret | null>(null)
  const add = useAction()

  const submit = async (e: Event) => {
    e.preventDefault()
    await add.run(async () => {
      setCreated(await data(client.api.integrations.webhooks.post({ url: form.url, events: form.events, description: form.description || undefined })))
      setForm({ url: '', description: '', events: [] })
      list.reload()
    })
  }

  return (
    <>
      <Section title="Webhooks">
        <ErrorNote error={list.error} />
        {created && (
          <SecretOnce
            label={`Endpoint ${created.url} created. Copy its signing secret now: it is not shown again.`}
            value={created.secret}
            testId="new-webhook-secret"
            onDone={() => setCreated(null)}
          />
        )}
        <table>
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>State</th>
              <th>Events</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((w) => (
              <tr key={w.id}>
                <td>
                  <a class="wrap" href={`${WEBHOOKS_PATH}/${w.id}`}>
                    {w.url}
                  </a>
                  {w.description && (
                    <>
                      <br />
                      <small class="muted">{w.description}</small>
                    </>
                  )}
                </td>
                <td>
                  <EndpointState webhook={w} />
                </td>
                <td>{w.events.length ? w.events.join(', ') : <span class="muted">test events only</span>}</td>
                <td>{when(w.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={list} count={list.data?.items.length} empty="No endpoints yet: add the URL that should receive events under New endpoint." />
      </Section>
      <Section title="New endpoint">
        <form onSubmit={submit} class="stack">
          <label>
            Endpoint URL{' '}
            <input required type="url" placeholder="https://…" value={form.url} onInput={(e) => setForm({ ...form, url: e.currentTarget.value })} />
          </label>
          <label>
            Description (optional) <input value={form.description} onInput={(e) => setForm({ ...form, description: e.currentTarget.value })} />
          </label>
          <EventChoices chosen={form.events} onChange={(events) => setForm({ ...form, events })} />
          <div>
            <button type="submit" disabled={add.busy}>
              Create endpoint
            </button>
          </div>
        </form>
        <ErrorNote error={add.error} />
      </Section>
    </>
  )
}

/** The event types an endpoint can subscribe to, as checkboxes. */
function EventChoices({ chosen, onChange }: { chosen: string[]; onChange: (events: string[]) => void }) {
  const catalogue = useLoad(() => data(client.api.integrations.events.get()), [])
  return (
    <fieldset>
      <legend>Events</legend>
      <ErrorNote error={catalogue.error} />
      <div class="events">
        {catalogue.data?.items.map((ev) => (
          <label key={ev.type} title={ev.description} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(ev.type)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, ev.type] : chosen.filter((t) => t !== ev.type))}
            />{' '}
            {ev.type}
          </label>
        ))}
      </div>
      <small class="muted">None: the endpoint only gets test events.</small>
    </fieldset>
  )
}

function EndpointState({ webhook }: { webhook: Webhook }) {
  if (webhook.enabled) return <Badge tone="good">enabled</Badge>
  return (
    <>
      <Badge tone="bad">disabled</Badge>
      {webhook.disabledReason && (
        <>
          <br />
          <small class="muted">{webhook.disabledReason}</small>
        </>
      )}
    </>
  )
}

function WebhookDetail({ id }: { id: string }) {
  const hook = useLoad(() => data(client.api.integrations.webhooks({ id }).get()), [id])
  const [page, setPage] = useState(1)
  const deliveries = useLoad(() => data(client.api.integrations.webhooks({ id }).deliveries.get({ query: { page, pageSize: PAGE_SIZE } })), [id, page])
  // While a delivery is pending, look again every 2 s (attempts run in the background).
  const pending = deliveries.data?.items.some((d) => d.status === 'pending') ?? false
  useEffect(() => {
    if (!pending || deliveries.loading) return
    const timer = setTimeout(deliveries.reload, 2000)
    return () => clearTimeout(timer)
  }, [pending, deliveries.loading, deliveries.data])
  const [rotated, setRotated] = useState<WebhookWithSecret | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const act = useAction()

  const sendTest = () =>
    act.run(async () => {
      const queued = await data(client.api.integrations.webhooks({ id }).test.post())
      setNote(`Test event queued (delivery ${queued.id}).`)
      setPage(1)
      deliveries.reload()
    })
  const retry = (d: WebhookDelivery) =>
    act.run(async () => {
      await data(client.api.integrations.webhooks({ id }).deliveries({ deliveryId: d.id }).retry.post())
      setNote(`Delivery ${d.id} queued again.`)
      deliveries.reload()
    })
  const toggle = (w: Webhook) =>
    act.run(async () => {
      await data(client.api.integrations.webhooks({ id }).patch({ enabled: !w.enabled }))
      hook.reload()
    })
  const rotate = () =>
    act.run(async () => {
      if (!(await ask('Make a new signing secret? The old one keeps working for a while.', 'Rotate secret'))) return
      setRotated(await data(client.api.integrations.webhooks({ id })['rotate-secret'].post()))
    })
  const [editing, setEditing] = useState<{ url: string; description: string; events: string[] } | null>(null)
  const save = async (e: Event) => {
    e.preventDefault()
    if (!editing) return
    const ok = await act.run(() => data(client.api.integrations.webhooks({ id }).patch(editing)))
    if (ok) {
      setEditing(null)
      hook.reload()
    }
  }
  const remove = (w: Webhook) =>
    act.run(async () => {
      if (!(await ask(`Delete the endpoint ${w.url}?`, 'Delete endpoint'))) return
      await data(client.api.integrations.webhooks({ id }).delete())
      location.hash = WEBHOOKS_PATH
    })

  const w = hook.data
  return (
    <>
      <p>
        <a href={WEBHOOKS_PATH}>← Webhooks</a>
      </p>
      <ErrorNote error={hook.error} />
      {w && (
        <Section title="Endpoint">
          <dl>
            <dt>URL</dt>
            <dd class="wrap">{w.url}</dd>
            <dt>State</dt>
            <dd>
              <EndpointState webhook={w} />
            </dd>
            <dt>Events</dt>
            <dd>{w.events.length ? w.events.join(', ') : 'test events only'}</dd>
            {w.description && (
              <>
                <dt>Description</dt>
                <dd>{w.description}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{when(w.createdAt)}</dd>
          </dl>
          <div class="row-actions">
            <button type="button" onClick={sendTest} disabled={act.busy}>
              Send test event
            </button>
            <button
              type="button"
              class="secondary"
              aria-expanded={!!editing}
              onClick={() => setEditing(editing ? null : { url: w.url, description: w.description, events: w.events })}
            >
              Edit endpoint
            </button>
            <button type="button" class="secondary" onClick={() => toggle(w)} disabled={act.busy}>
              {w.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" class="secondary" onClick={rotate} disabled={act.busy}>
              Rotate secret
            </button>
            <button type="button" class="danger" onClick={() => remove(w)} disabled={act.busy}>
              Delete endpoint
            </button>
          </div>
          {editing && (
            <form onSubmit={save} class="stack" aria-label="Endpoint settings">
              <label>
                Endpoint URL <input required type="url" value={editing.url} onInput={(e) => setEditing({ ...editing, url: e.currentTarget.value })} />
              </label>
              <label>
                Description <input value={editing.description} onInput={(e) => setEditing({ ...editing, description: e.currentTarget.value })} />
              </label>
              <EventChoices chosen={editing.events} onChange={(events) => setEditing({ ...editing, events })} />
              <div class="row-actions">
                <button type="submit" disabled={act.busy}>
                  Save endpoint
                </button>
                <button type="button" class="secondary" onClick={() => setEditing(null)}>
                  Cancel
                </button>
              </div>
            </form>
          )}
          {rotated && (
            <SecretOnce
              label="The new signing secret: copy it now, it is not shown again."
              value={rotated.secret}
              testId="new-webhook-secret"
              onDone={() => setRotated(null)}
            />
          )}
          {note && <p role="status">{note}</p>}
          <ErrorNote error={act.error} />
        </Section>
      )}
      <Section title="Deliveries">
        <p>
          <button type="button" class="secondary" onClick={deliveries.reload}>
            Refresh
          </button>
        </p>
        <ErrorNote error={deliveries.error} />
        <table>
          <thead>
            <tr>
              <th>Event</th>
              <th class="keep">Status</th>
              <th>Attempts</th>
              <th>Answer</th>
              <th>Created</th>
              <th class="keep">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data?.items.map((d) => (
              <tr key={d.id}>
                <DeliveryCells delivery={d} />
                <td class="keep">
                  <button type="button" onClick={() => retry(d)} disabled={act.busy} aria-label={`Retry delivery of ${d.eventType} from ${when(d.createdAt)}`}>
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={deliveries} count={deliveries.data?.items.length} empty="No deliveries yet: send a test event to see one." />
        {deliveries.data && <Pager page={page} pageSize={PAGE_SIZE} total={deliveries.data.total} onPage={setPage} />}
      </Section>
    </>
  )
}

/** A delivery's cells: event, status, attempts, the endpoint's answer, created (this page's and the Logs page's tables). */
export function DeliveryCells({ delivery: d }: { delivery: WebhookDelivery }) {
  return (
    <>
      <td>
        {d.eventType}
        <br />
        <small class="muted">
          <code>{d.id}</code>
        </small>
      </td>
      <td class="keep">
        <Badge tone={deliveryTone(d.status)}>{d.status}</Badge>
      </td>
      <td>{d.attempts}</td>
      <td>
        {d.responseCode ?? '—'}
        {d.latencyMs != null ? `, ${ms(d.latencyMs)}` : ''}
        {d.lastError ? (
          <>
            <br />
            <small class="error">{d.lastError}</small>
          </>
        ) : null}
      </td>
      <td>{when(d.createdAt)}</td>
    </>
  )
}
