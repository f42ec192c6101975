import { useState } from 'preact/hooks'
import type { OAuthClient, OAuthClientCreated } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Pager, SecretOnce, Section, useAction, useLoad, when } from '../ui'
import { lines, useAutofocus } from './team-kit'

const PAGE_SIZE = 20

/** OAuth client applications of your account: the client secret is shown once, on create and on rotate. */
export function OAuthClients() {
  const [page, setPage] = useState(1)
  const list = useLoad(() => data(client.api.oauth.clients.get({ query: { page, pageSize: PAGE_SIZE } })), [page])
  const metadata = useLoad(() => data(client.api['.well-known']['oauth-authorization-server'].get()), [])
  const scopes = metadata.data?.scopes_supported ?? ['profile', 'email']
  const [form, setForm] = useState({ name: '', redirectUris: '', scopes: ['profile', 'email'] })
  const [secret, setSecret] = useState<{ verb: string; created: OAuthClientCreated } | null>(null)
  const [editing, setEditing] = useState<OAuthClient | null>(null)
  const create = useAction()
  const act = useAction()

  const submit = async (e: Event) => {
    e.preventDefault()
    const ok = await create.run(async () => {
      const created = await data(client.api.oauth.clients.post({ name: form.name.trim(), redirectUris: lines(form.redirectUris), scopes: form.scopes }))
      setSecret({ verb: 'created', created })
    })
    if (ok) {
      setForm({ name: '', redirectUris: '', scopes: ['profile', 'email'] })
      list.reload()
    }
  }
  const rotate = async (c: OAuthClient) => {
    if (!(await ask(`Replace the secret of ${c.name}? The old secret stops working at once.`, 'Rotate secret'))) return
    await act.run(async () => setSecret({ verb: 'rotated', created: await data(client.api.oauth.clients({ id: c.id }).secret.post()) }))
  }
  const remove = async (c: OAuthClient) => {
    if (!(await ask(`Delete ${c.name}? Every grant and token issued to it ends.`, 'Delete client'))) return
    if (await act.run(() => data(client.api.oauth.clients({ id: c.id }).delete()))) {
      if (secret?.created.id === c.id) setSecret(null)
      list.reload()
    }
  }
  const toggleScope = (scope: string, on: boolean) => setForm({ ...form, scopes: on ? [...form.scopes, scope] : form.scopes.filter((s) => s !== scope) })

  return (
    <div class="team-page">
      <Section title="OAuth clients">
        <p class="muted">Applications that sign people in with their Ecobase account. They belong to your account, not to an ecosystem.</p>
        <ErrorNote error={list.error ?? act.error} />
        {secret && (
          <SecretOnce
            testId="new-client-secret"
            label={`Client secret of ${secret.created.name} (${secret.verb}, client id ${secret.created.clientId}). Copy it now: it is not shown again.`}
            value={secret.created.clientSecret}
            onDone={() => setSecret(null)}
          />
        )}
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th class="phone-hide">Client id</th>
              <th>Redirect URIs</th>
              <th>Scopes</th>
              <th>Created</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((c) => (
              <tr key={c.id}>
                <td>{c.name}</td>
                <td class="phone-hide">
                  <code>{c.clientId}</code>
                </td>
                <td>
                  {c.redirectUris.map((u) => (
                    <div key={u}>
                      <code>{u}</code>
                    </div>
                  ))}
                </td>
                <td>{c.scopes.join(', ')}</td>
                <td>{when(c.createdAt)}</td>
                <td class="keep actions">
                  <button type="button" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                    Edit
                  </button>
                  <button type="button" disabled={act.busy} onClick={() => void rotate(c)} aria-label={`Rotate the secret of ${c.name}`}>
                    Rotate secret
                  </button>
                  <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(c)} aria-label={`Delete ${c.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && <p>No OAuth clients yet.</p>}
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      {editing && (
        <EditClient
          key={editing.id}
          app={editing}
          scopes={scopes}
          onDone={(changed) => {
            setEditing(null)
            if (changed) list.reload()
          }}
        />
      )}
      <Section title="New OAuth client">
        <form onSubmit={submit} class="stack">
          <label>
            Application name <input required maxLength={100} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
          </label>
          <label>
            Redirect URIs (one per line)
            <textarea
              required
              rows={3}
              value={form.redirectUris}
              placeholder="https://app.example.com/callback"
              onInput={(e) => setForm({ ...form, redirectUris: e.currentTarget.value })}
            />
          </label>
          <fieldset>
            <legend>Scopes</legend>
            {scopes.map((s) => (
              <label key={s} class="check">
                <input type="checkbox" checked={form.scopes.includes(s)} onChange={(e) => toggleScope(s, e.currentTarget.checked)} /> {s}
              </label>
            ))}
          </fieldset>
          <div class="row">
            <button type="submit" disabled={create.busy}>
              Create client
            </button>
          </div>
          <ErrorNote error={create.error} />
        </form>
      </Section>
    </div>
  )
}

function EditClient({ app, scopes, onDone }: { app: OAuthClient; scopes: string[]; onDone: (changed: boolean) => void }) {
  const [form, setForm] = useState({ name: app.name, redirectUris: app.redirectUris.join('\n'), scopes: app.scopes })
  const first = useAutofocus<HTMLInputElement>()
  const save = useAction()
  const submit = async (e: Event) => {
    e.preventDefault()
    const ok = await save.run(() =>
      data(client.api.oauth.clients({ id: app.id }).patch({ name: form.name.trim(), redirectUris: lines(form.redirectUris), scopes: form.scopes })),
    )
    if (ok) onDone(true)
  }
  return (
    <Section title={`Edit ${app.name}`}>
      <form onSubmit={submit} class="stack">
        <label>
          Application name <input required maxLength={100} value={form.name} ref={first} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </label>
        <label>
          Redirect URIs (one per line){' '}
          <textarea required rows={3} value={form.redirectUris} onInput={(e) => setForm({ ...form, redirectUris: e.currentTarget.value })} />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {scopes.map((s) => (
            <label key={s} class="check">
              <input
                type="checkbox"
                checked={form.scopes.includes(s)}
                onChange={(e) => setForm({ ...form, scopes: e.currentTarget.checked ? [...form.scopes, s] : form.scopes.filter((x) => x !== s) })}
              />{' '}
              {s}
            </label>
          ))}
        </fieldset>
        <div class="row">
          <button type="submit" disabled={save.busy}>
            Save client
          </button>
          <button type="button" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
        <ErrorNote error={save.error} />
      </form>
    </Section>
  )
}
