import { useState } from 'preact/hooks'
import type { ApiTokenCreated } from '../../client/index'
import { client, data, message } from '../api'
import { ErrorNote, Section, useLoad } from '../ui'

/** API tokens of your account: the secret is shown once, right after it is created. */
export function Tokens() {
  const list = useLoad(() => data(client.api.auth.tokens.get({ query: { pageSize: 100 } })), [])
  const [name, setName] = useState('')
  const [created, setCreated] = useState<ApiTokenCreated | null>(null)
  const [error, setError] = useState<string | null>(null)

  const create = async (e: Event) => {
    e.preventDefault()
    setError(null)
    try {
      setCreated(await data(client.api.auth.tokens.post({ name })))
      setName('')
      list.reload()
    } catch (err) {
      setError(message(err))
    }
  }
  const revoke = async (id: string) => {
    try {
      await data(client.api.auth.tokens({ id }).delete())
      list.reload()
    } catch (err) {
      setError(message(err))
    }
  }
  return (
    <Section title="API tokens">
      <form onSubmit={create} class="inline">
        <label>Name <input required value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <button type="submit">Create token</button>
      </form>
      <ErrorNote error={error ?? list.error} />
      {created && (
        <div class="secret" role="status">
          <p>Copy the token now: it is not shown again.</p>
          <code data-testid="new-token">{created.token}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>Copy</button>{' '}
          <button type="button" onClick={() => setCreated(null)}>Done</button>
        </div>
      )}
      <table>
        <thead><tr><th>Name</th><th>Prefix</th><th>Created</th><th>Last used</th><th class="keep"><span class="sr">Actions</span></th></tr></thead>
        <tbody>
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td><td><code>{t.prefix}…</code></td><td>{new Date(t.createdAt).toLocaleString()}</td>
              <td>{t.lastUsedAt ? new Date(t.lastUsedAt).toLocaleString() : 'never'}</td>
              <td class="keep"><button type="button" class="danger" onClick={() => revoke(t.id)} aria-label={`Revoke ${t.name}`}>Revoke</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  )
}
