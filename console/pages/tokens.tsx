import { useState } from 'preact/hooks'
import type { ApiTokenCreated } from '../../client/index'
import { client, data } from '../api'
import { ErrorNote, SecretOnce, Section, useAction, useLoad } from '../ui'

/** API tokens of your account: the secret is shown once, right after it is created. */
export function Tokens() {
  const list = useLoad(() => data(client.api.auth.tokens.get({ query: { pageSize: 100 } })), [])
  const [name, setName] = useState('')
  const [created, setCreated] = useState<ApiTokenCreated | null>(null)
  const { error, run } = useAction()

  const create = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      setCreated(await data(client.api.auth.tokens.post({ name })))
      setName('')
      list.reload()
    })
  }
  const revoke = (id: string) =>
    run(async () => {
      await data(client.api.auth.tokens({ id }).delete())
      list.reload()
    })
  return (
    <Section title="API tokens">
      <form onSubmit={create} class="inline">
        <label>
          Name <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Create token</button>
      </form>
      <ErrorNote error={error ?? list.error} />
      {created && <SecretOnce label="Copy the token now: it is not shown again." value={created.token} testId="new-token" onDone={() => setCreated(null)} />}
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Prefix</th>
            <th>Created</th>
            <th>Last used</th>
            <th class="keep">
              <span class="sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <code>{t.prefix}…</code>
              </td>
              <td>{new Date(t.createdAt).toLocaleString()}</td>
              <td>{t.lastUsedAt ? new Date(t.lastUsedAt).toLocaleString() : 'never'}</td>
              <td class="keep">
                <button type="button" class="danger" onClick={() => revoke(t.id)} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  )
}
